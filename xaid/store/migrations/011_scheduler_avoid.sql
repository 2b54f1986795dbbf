-- "Don't bring this up": topics the user asked the companion never to suggest. A JSON list of
-- topics or words, like `allow`; an armed item that matches one is never suggested (scheduler.fire).
ALTER TABLE recall_settings ADD COLUMN avoid TEXT NOT NULL DEFAULT '[]';
