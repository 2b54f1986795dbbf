"""One conversational turn: from the user's stored words to the companion's stored reply.

``turns`` runs it; ``prompt`` assembles what the model reads, in KV-cache order; ``agent_config``
is what an agent's config map may hold; ``generation`` is the fair queue before the one model;
``opening`` keeps a reply from greeting the user with the companion's own name; ``reply`` is the
record ``session.send`` answers with; ``live`` is which sessions are speaking or closing now.
"""
