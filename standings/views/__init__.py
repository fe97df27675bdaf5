"""The standings app's pages: the standings themselves, and the officers' records that settle them."""
