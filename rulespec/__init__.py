"""rulespec: rule specifications for the Italian fishing card games, compiled into fast engines."""

__version__ = "0.1.0"
