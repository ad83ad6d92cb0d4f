-- After an outage longer than Discord's nonce window, delivery looks in a channel for a post
-- it may have made already; a message an event owns is never taken for another's.
CREATE INDEX outbox_posts_message ON outbox_posts (message_id);
