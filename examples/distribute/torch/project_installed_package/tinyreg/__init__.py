"""A small regression model and a step-budgeted trainer, installed as a package."""
