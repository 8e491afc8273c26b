/**
 * SampleIndexer: GeoIndexer with the bundled sample's verbs (the article's index: restaurants
 * and their dishes, joined parent → child in one index). A dish is routed by its restaurant's
 * location and carries a copy of its restaurant; a restaurant that moves takes its dishes along.
 *
 *   const indexer = new SampleIndexer(client, 'dishes');
 *   await indexer.putRestaurant({ id: 'r1', name: 'Blue Fig', lat: 37.77, lng: -122.42 });
 *   await indexer.putDish('r1', { id: 'r1-d0', name: 'Fig salad', priceCents: 1299 });
 *   await indexer.deleteRestaurant('r1');
 *
 * Writes of putRestaurant, putDish and deleteRestaurant use refresh=wait_for: when they return,
 * searches see them. A restaurant is found by search, so putRestaurant and deleteRestaurant
 * refresh the index first (a dish written a moment ago by another writer is then found and
 * moved or deleted with it).
 */
import { GeoIndexer, GeoIndexError, MAX_CHILD_COPIES, type DeleteResult, type Hit, type PutResult, type RoutingState } from './indexer.ts';
import { CHILD, JOIN_FIELD } from './sampleIndex.ts';
import { cellOf, type Source } from './documentFields.ts';
import { dishSource, kindOf, restaurantOfSource, restaurantSource, withRestaurant, type DishFields, type RestaurantFields } from './sampleDocuments.ts';

/** SampleIndexer writes the sample's restaurants and dishes into one geoshard index through the official client. */
export class SampleIndexer extends GeoIndexer {
  /**
   * putRestaurant writes a restaurant (all its fields: what `r` leaves
   * undefined is left out, except place and state, kept from the existing
   * document) and rewrites its dishes with the new copy of it. When its new
   * location is on another shard, the restaurant and all its dishes are
   * written to the new owner(s) first and only then deleted from the old ones;
   * if the new copies cannot all be written, those written are deleted again
   * and the old ones stay (GeoIndexError). Throws GeoIndexError conflict when
   * `r.id` is a dish's id.
   */
  async putRestaurant(r: RestaurantFields): Promise<PutResult> {
    const view = await this.routing();
    await this.refresh();
    const copies = await this.findById(r.id);
    if (copies.some((h) => kindOf(h._source) !== 'restaurant')) throw new GeoIndexError('conflict', `id "${r.id}" is a dish's id, not a restaurant's: choose another id`);
    const old = copies.map((h) => restaurantOfSource(h._source)).find((x) => x !== null);
    const dishHits = await this.findDishes(r.id);
    const owners = view.router.writeShards(r.lat, r.lng);
    const ownerNames = new Set(owners.map((o) => o.name));
    // One source per dish: the copy on a current owner when there is one.
    const dishes = new Map<string, Source>();
    for (const h of dishHits) if (!dishes.has(h._id) || ownerNames.has(h._routing ?? '')) dishes.set(h._id, h._source);
    const fields: RestaurantFields = { ...r, place: r.place ?? old?.place, state: r.state ?? old?.state, cell: cellOf(r.lat, r.lng), dishCount: dishes.size };
    const point = { lat: r.lat, lng: r.lng };
    const writes = [this.sender.entry(r.id, 'index', point, null, restaurantSource(fields, owners[0].name)), ...[...dishes].map(([id, s]) => this.sender.entry(id, 'index', point, null, withRestaurant(s, fields)))];
    const oldRoutings = new Set([...copies, ...dishHits].map((h) => h._routing ?? ''));
    const staleDishes = (stale: string[]) => [...new Set(dishHits.filter((h) => stale.includes(h._routing ?? '')).map((h) => h._id))];
    const { now, finalOwners, stale, results } = await this.writeMoving('restaurant', r.id, view, owners, point, writes, oldRoutings, staleDishes);
    const epoch = writes[0].result.epoch;
    return { id: r.id, restaurantId: r.id, lat: r.lat, lng: r.lng, cell: fields.cell!, owners: finalOwners, read: now.router.readShard(r.lat, r.lng), epoch, created: copies.length === 0, movedFrom: stale, dishes: dishes.size, results };
  }

  /**
   * putDish writes a dish of an existing restaurant (all its fields), routed
   * by the restaurant's location, carrying its copy of the restaurant. Throws
   * GeoIndexError not-found when the restaurant does not exist, conflict when
   * the id is a restaurant's or another restaurant's dish's.
   */
  async putDish(restaurantId: string, d: DishFields): Promise<PutResult> {
    const view = await this.routing();
    let rHits = (await this.findById(restaurantId)).filter((h) => kindOf(h._source) === 'restaurant');
    if (rHits.length === 0) {
      // Perhaps written a moment ago and not yet searchable.
      await this.refresh();
      rHits = (await this.findById(restaurantId)).filter((h) => kindOf(h._source) === 'restaurant');
    }
    const rHit = rHits.find((h) => h._routing === this.readOwnerOf(view, h)) ?? rHits[0];
    const r = rHit ? restaurantOfSource(rHit._source) : null;
    if (!r) throw new GeoIndexError('not-found', `restaurant "${restaurantId}" does not exist in index "${this.index}": put the restaurant first`);
    const existing = await this.findById(d.id);
    for (const h of existing) {
      if (kindOf(h._source) !== 'dish') throw new GeoIndexError('conflict', `id "${d.id}" is a restaurant's id, not a dish's: choose another dish id`);
      if (h._source.restaurant_id !== restaurantId) throw new GeoIndexError('conflict', `dish "${d.id}" belongs to restaurant "${String(h._source.restaurant_id)}", not "${restaurantId}": choose another dish id`);
    }
    const created = existing.length === 0;
    const point = { lat: r.lat, lng: r.lng };
    const writes = [this.sender.entry(d.id, 'index', point, null, dishSource(d, r))];
    // A new dish: its restaurant counts it.
    if (created) writes.unshift(this.sender.entry(r.id, 'index', point, null, restaurantSource({ ...r, dishCount: (r.dishCount ?? 0) + 1 }, '')));
    await this.sender.send(writes, true);
    if (writes.some((e) => !e.result.ok)) throw this.sender.failure(`dish "${d.id}"`, writes, '');
    const now = this.cached!;
    const owners = now.router.writeShards(r.lat, r.lng);
    const keep = new Set(owners.map((o) => o.name));
    const results = writes.map((e) => e.result);
    const stale = [...new Set(existing.map((h) => h._routing ?? ''))].filter((x) => x !== '' && !keep.has(x));
    if (stale.length > 0) {
      const del = this.sender.entry(d.id, 'delete', null, stale, null);
      await this.sender.send([del], true);
      results.push(del.result);
      if (!del.result.ok) throw this.sender.failure(`the old copies of dish "${d.id}"`, [del], '');
    }
    return { id: d.id, restaurantId, lat: r.lat, lng: r.lng, cell: cellOf(r.lat, r.lng), owners, read: now.router.readShard(r.lat, r.lng), epoch: writes[writes.length - 1].result.epoch, created, movedFrom: stale, dishes: 0, results };
  }

  /**
   * deleteRestaurant deletes a restaurant and all its dishes from every shard
   * that holds a copy and every owner of its location. Throws GeoIndexError
   * not-found when neither the restaurant nor any dish of it exists.
   */
  async deleteRestaurant(id: string): Promise<DeleteResult> {
    const view = await this.routing();
    await this.refresh();
    const copies = (await this.findById(id)).filter((h) => kindOf(h._source) === 'restaurant');
    const dishHits = await this.findDishes(id);
    if (copies.length === 0 && dishHits.length === 0) throw new GeoIndexError('not-found', `restaurant "${id}" does not exist in index "${this.index}"`);
    const r = copies.map((h) => restaurantOfSource(h._source)).find((x) => x !== null) ?? null;
    const owners = r ? view.router.writeShards(r.lat, r.lng) : [];
    const routings = [...new Set([...owners.map((o) => o.name), ...[...copies, ...dishHits].map((h) => h._routing ?? '')])].filter((x) => x !== '');
    const dishIds = [...new Set(dishHits.map((h) => h._id))];
    const dels = [...dishIds.map((d) => this.sender.entry(d, 'delete', null, routings, null)), this.sender.entry(id, 'delete', null, routings, null)];
    await this.sender.send(dels, true);
    if (dels.some((e) => !e.result.ok)) throw this.sender.failure(`restaurant "${id}" and its dishes`, dels, '');
    return {
      id,
      lat: r?.lat ?? null,
      lng: r?.lng ?? null,
      cell: r ? cellOf(r.lat, r.lng) : null,
      owners,
      read: r ? view.router.readShard(r.lat, r.lng) : null,
      epoch: view.epoch,
      routings,
      dishes: dishIds.length,
      results: dels.map((e) => e.result),
    };
  }


  private readOwnerOf(view: RoutingState, h: Hit): string | null {
    const r = restaurantOfSource(h._source);
    return r ? view.router.readShard(r.lat, r.lng).name : null;
  }


  private async findDishes(restaurantId: string): Promise<Hit[]> {
    const res = await this.request<{ hits: { total: { value: number }; hits: Hit[] } }>('POST', `/${encodeURIComponent(this.index)}/_search`, {
      size: MAX_CHILD_COPIES,
      track_total_hits: true,
      query: { bool: { filter: [{ term: { [JOIN_FIELD]: CHILD } }, { term: { restaurant_id: restaurantId } }] } },
    });
    if (res.body.hits.total.value > MAX_CHILD_COPIES) throw new GeoIndexError('failed', `restaurant "${restaurantId}" has ${res.body.hits.total.value} dish copies, more than the ${MAX_CHILD_COPIES} GeoIndexer moves in one operation`);
    return res.body.hits.hits;
  }
}
