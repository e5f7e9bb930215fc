"""The workspace on disk: all-or-nothing commits, files only their owner reads, the
local store of each game and the identities' key files."""
