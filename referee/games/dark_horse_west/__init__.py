"""Dark Horse West ruleset (in progress): the house territory map, rails and access.

The rule text is shared/rules/003_7103a8c1fffe081e.txt. The printed territory map could not
be found, so the house designed one: hexes.py holds its pure geometry (neighbours,
distance, the sides where rails lie and the corners where they meet) and loads the map and
the 20 resource tiles from ../dark_horse_west_map.json; docs/rules/dark-horse-west-map.md
explains the design and docs/rules/dark-horse-west-map.svg draws it. rails.py says where
rails, towns and cities may go, what hidden tiles a player may look at, and what each city
scores. The ruleset itself is not written or registered yet.
"""
