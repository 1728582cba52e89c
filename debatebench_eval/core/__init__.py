"""The shared core: errors, argument coercion, YAML loading, credentials in URLs, the
shipped data files, saved-log paths and the private Inspect names. It imports nothing
else from the package.
"""
