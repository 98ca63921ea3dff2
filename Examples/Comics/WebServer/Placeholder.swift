// The web front end (in progress).
