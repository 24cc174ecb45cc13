"""HTTP edge: flags, restrictions and investigations for analysts, investigators, chat server."""
