"""The phone alone: the static build (build.py) and the browser entry it ships (browser.py)."""
