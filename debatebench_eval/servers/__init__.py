"""Talking to model servers: where a model's server is, probing it before the first
call, counting tokens there, and the settings of every call. Imports the core only.
"""
