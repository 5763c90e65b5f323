"""The check stage: options, types, schedules (check), then lint's findings; stage.check() runs both."""
