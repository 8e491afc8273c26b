/**
 * Place: the one record of a populated place in geoshard: a US place of the gazetteer that the
 * data generator spreads restaurants around (src/data/places.ts), a sample city of
 * data/cities.json (a worked search's centre, a fan-out weight, a workload hot spot), a place a
 * synthetic workload draws searches from. Each user names the fields it needs known with
 * `Place & Required<Pick<Place, ...>>` (City, UsPlace) or takes a Pick (PopulatedPlace), so the
 * fields, their units and ranges are declared here once.
 */
export interface Place {
  /** GeoNames id (unique), when the place comes from the gazetteer. */
  id?: number;
  /** Display name, e.g. "New York". Namesakes differ by state ("Portland", OR and ME). */
  name: string;
  /** US state code (GeoNames admin1 code, e.g. "CA"), or the country code outside the US; "" when unknown. */
  state: string;
  /** ISO 3166-1 alpha-2 country code, when known. */
  country?: string;
  /** Degrees in [-90, 90]. */
  lat: number;
  /** Degrees, finite. */
  lng: number;
  /** Inhabitants, a non-negative integer, when known. */
  population?: number;
}

/** A city as data/cities.json holds it: a Place whose country and population are known (no id). */
export type City = Omit<Place, 'id'> & Required<Pick<Place, 'country' | 'population'>>;

/** A US place of the gazetteer (src/data/places.ts): a Place whose GeoNames id and population are known. */
export type UsPlace = Place & Required<Pick<Place, 'id' | 'population'>>;

/** What a draw in proportion to people needs of a place: where it is and its population (> 0 to be drawn). */
export type PopulatedPlace = Pick<Place, 'lat' | 'lng'> & Required<Pick<Place, 'population'>>;
