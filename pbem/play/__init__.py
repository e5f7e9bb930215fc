"""What a player does: start and join games, give orders and send them, receive the
other side's files, look at the war, audit, branch and end games."""
