"""Pure detection: contract events plus small keyed state in, findings with evidence out."""
