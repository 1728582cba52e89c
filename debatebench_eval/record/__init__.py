"""What a debate is made of, shared by every subpackage that reads one: sides and
phases, motions, teams, and the typed record of a sample (turns, passages, run
settings). It sits below debate, judging, prep, crucible and protocols."""
