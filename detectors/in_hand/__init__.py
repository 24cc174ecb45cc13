"""In-hand influence: talk, emoji or SnapCam that can sway a hand in play, worst of all a
folded player naming their hole cards.

`hand_watch` follows the hands in play and the messages during them, `verdicts` decides what a
message amounts to (live, and again once the hand history shows who held what), `card_talk`
reads poker talk out of chat. The detector, `in_hand_influence`, reads table chat and private
messages to players dealt in (keyed by hand).
"""
