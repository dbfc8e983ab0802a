#!/bin/sh
# Act 3's shell guard, as an operator writes one: the call arrives as JSON on stdin; exit 2 vetoes it
# and stderr is the reason the model reads. Anything else (exit 0, no output) has no opinion.
input=$(cat)
case "$input" in
  *curl*|*wget*) echo "no network access from the agent's shell; ask the user to download what you need" >&2; exit 2 ;;
esac
exit 0
