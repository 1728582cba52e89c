"""What the tests share: scripted models, the loopback stub server, judge replies,
recorded debates to re-judge, and the real command line."""
