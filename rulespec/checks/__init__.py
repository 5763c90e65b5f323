"""Static checks of a loaded ruleset: types, options, deal schedules (check), then lint's warnings."""
