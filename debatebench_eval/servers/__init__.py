"""Talking to model servers: where a model's server is, probing it before the first
call, ending the samples of one that stopped, a judge's fingerprint where its server
reports none, counting tokens there, and the settings of every call. Imports the core
only.
"""
