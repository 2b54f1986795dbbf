"""Proactive recall: arm a question after a session, fire it only when the user opens the next one."""
