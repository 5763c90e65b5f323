"""`python -m rulespec` runs the command line."""
from rulespec.cli.main import main

main()
