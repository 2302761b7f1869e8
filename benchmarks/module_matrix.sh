#!/usr/bin/env bash
# Every allowed module subset x player count, 300 bot games each (issue: 0 errors everywhere).
cd "$(dirname "$0")/.."
for m in "" guildmasters faction-heroes dilemmas guildmasters,faction-heroes guildmasters,dilemmas faction-heroes,dilemmas guildmasters,faction-heroes,dilemmas; do
  for p in 1 2 3 4; do
    case "$m" in *guildmasters*) [ "$p" = 1 ] && continue ;; esac
    .venv/bin/conclave simulate --game new-capital --modules "$m" --players "$p" --games "${GAMES:-300}" --seed 3 --json \
      | python3 -c "import json,sys; d=json.load(sys.stdin); print(f\"{d['modules']!s:50} P={d['players']} completed={d['completed']}/{d['games']} errors={d['errors']} median_ms={d['median_game_ms']}\")"
  done
done
