"""The parts of the store (companion/store.py), by what they keep. Other modules import from
`companion.store`, the one facade."""
