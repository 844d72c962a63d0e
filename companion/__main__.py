"""`python -m companion` = the `companion` command."""
from .cli import main

raise SystemExit(main())
