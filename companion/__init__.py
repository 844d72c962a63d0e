"""companion: a rulebook companion and scoring assistant for board games."""
import os

__version__ = "0.1.0"


def shared_dir(name: str) -> str:
    """The folder `data` (rule texts) or `locales` (the .po catalogues): inside the package when it was
    installed from a wheel (setup.py copies them in), else at the top level of the checkout (an
    editable install, tests, the phone-alone archive: companion/ beside data/ and locales/)."""
    here = os.path.dirname(os.path.abspath(__file__))
    inside = os.path.join(here, name)
    return inside if os.path.isdir(inside) else os.path.join(os.path.dirname(here), name)
