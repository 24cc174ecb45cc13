"""In-hand influence: talk, emoji or SnapCam that can sway a hand in play, worst of all a
folded player naming their hole cards.

`hand_watch` follows the hands in play and the messages during them, `verdicts` decides what a
message amounts to (live, and again once the hand history shows who held what), `card_talk`
reads poker talk out of chat. The two detectors are the watch for table chat
(`in_hand_influence`, keyed by table) and for private messages (`in_hand_private`, keyed by
hand: the recipient's).
"""
