"""debatebench's files: its transcripts and score files read and written, and the
`judge` task that re-judges recorded debates. Imports the layers below the commands.
"""
