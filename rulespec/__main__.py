"""`python -m rulespec` runs the command line."""
from .cli import main

main()
