-- The bigram keyword index also holds each text's numbers in digits with the Chinese character after
-- them ("3月", "22号": xaid.text.cjk.numbered, through cjk_bigrams()), so that a date written in digits
-- can be found by keyword (issue 28). The index is contentless: it is emptied and filled again from
-- memory_items with the new cjk_bigrams(), as the triggers fill it for new rows.
DELETE FROM memory_fts_bigram;
INSERT INTO memory_fts_bigram(rowid, text) SELECT item_id, cjk_bigrams(text) FROM memory_items;
