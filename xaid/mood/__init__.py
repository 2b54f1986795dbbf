"""Mood: the classifier, the state that decays, and the tone guidance it yields."""
