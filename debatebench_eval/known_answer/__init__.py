"""Known-answer debates (scalable oversight): questions with one right answer and
hidden evidence, the debate, consultancy, naive, expert and open protocols, the
judge's accuracy with intervals, and the paired comparison of protocols."""
