"""What docs/turn-file-format.md specifies: the bytes of a turn file, signatures, records,
commitments, dice, the chain and the re-execution of a game's files.  Nothing here
writes to disk; a change here changes the format document and its vectors."""
