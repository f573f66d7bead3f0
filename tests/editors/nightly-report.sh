#!/bin/bash
# Rapport du soir — les lignes ci-dessous ont du texte non ASCII (é, ☕, 😀)
# avant leurs findings: 2 à 4 octets en UTF-8, 1 ou 2 unités en UTF-16.
echo "début ☕ 😀"; cat access.log | grep 500
cat access.log 2>/dev/null | wc -l
titre="Größe 📦"; sort words.txt | cat | uniq -c
