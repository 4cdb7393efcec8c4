"""Offline build: solve each rule variant and write its table file."""
