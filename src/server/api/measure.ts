/**
 * POST /api/measure: read the request (the method, the page's own Origin, a JSON body of at most
 * MAX_MEASURE_BODY_BYTES), parse it (wire/measure.ts parseMeasureRequest), pass the same checks
 * as a search (drift, the engine's routing, a migration's read state) and run the measurement
 * (measure.ts measurePlans). One at a time per server.
 */
import type { IncomingMessage } from 'node:http';
import { measurePlans, readProcessors } from '../measure.ts';
import { parseMeasureRequest, describeQuery, type MeasureAnswer } from '../wire.ts';
import type { ApiContext } from './context.ts';
import { errorResult, invalid, readBody, type ApiResult } from './http.ts';
import { unusable } from './load.ts';
import { configRefusal } from './search.ts';
import { planRouted, planAll, planCluster } from '../search/searchRun.ts';
import { isSampleShape } from '../search/searchBody.ts';
import { DOC_SHAPE, docShapeOf } from '../../opensearch/sampleIndex.ts';

/** Largest POST /api/measure body (bytes). */
const MAX_MEASURE_BODY_BYTES = 4096;

/** Measurements runs the measurements of one API, one at a time. */
export class Measurements {
  /** A measurement is running (POST /api/measure answers 429 meanwhile). */
  private running = false;

  constructor(private readonly api: ApiContext) {}

  /**
   * answer answers POST /api/measure (body: wire.ts MeasureRequest, parsed
   * JSON): the search run `runs` times per plan, routed and on all shards
   * (measure.ts measurePlans), after the same checks as a search (guards.ts
   * admit: drift, the pipeline, a migration's read state, the engine's routing). One measurement at a time:
   * another while one runs is a 429, so two never share the nodes and halve
   * each other's figures. 400 names the field at fault (parseMeasureRequest).
   */
  async answer(body: unknown): Promise<ApiResult> {
    const api = this.api;
    let m;
    try {
      m = parseMeasureRequest(body);
    } catch (e) {
      return invalid(e);
    }
    if (this.running) return { httpStatus: 429, body: { status: 'busy', error: { message: 'a measurement is already running on this server: wait for it (one at a time, so two never share the nodes and halve each other\'s figures)' } }, headers: { 'retry-after': '5' } };
    const l = api.routing();
    if ('error' in l) return unusable(l);
    // Another index than the sample is measured with its own search, as /api/search runs it.
    const sample = isSampleShape(l.config);
    const refused = sample ? null : configRefusal(l.config, m.search, (k) => (k === 'diet' ? m.search.diets : k === 'allergen' ? m.search.allergens : m.search.cuisines).length > 0);
    if (refused) return refused;
    const file = l.router.file;
    const head = { query: describeQuery(m.search), index: file.index, boundary: { hash: file.hash, version: file.version, numberOfShards: file.numberOfShards } };
    this.running = true;
    try {
      const admitted = await api.guards.admit(l, head, { pipeline: true });
      if ('refused' in admitted) return admitted.refused;
      const { drift: d, router } = admitted;
      const at = new Date().toISOString();
      const t0 = performance.now();
      const processors = await readProcessors(api.client).catch(() => null);
      const routed = planRouted(router, m.search);
      // The third way where the cluster routes: its search pipeline, sent no routing.
      const byCluster = await api.guards.clusterRoutes(file.index, d.meta);
      const f = await measurePlans(api.client, router, m.search, { routed, all: planAll(router), ...(byCluster ? { cluster: planCluster(router, m.search) } : {}) }, { runs: m.runs, concurrency: m.concurrency, located: sample && docShapeOf(d.meta?.sample) >= DOC_SHAPE, timeoutMs: api.searchTimeoutMs, ...(sample ? {} : { config: l.config }) });
      const answer: MeasureAnswer = {
        status: f.partialRuns > 0 ? 'partial' : 'complete',
        ...head,
        runs: m.runs,
        concurrency: m.concurrency,
        warmup: { runs: f.warmupRuns, note: `The first ${f.warmupRuns} of the ${m.runs} one-at-a-time runs of each plan were warm-up (cold caches and code paths) and are discarded: p50 and p99 are of the other ${m.runs - f.warmupRuns}.` },
        routing: routed.routing ?? '',
        routed: f.routed,
        all: f.all,
        gain: f.gain,
        ...(f.cluster && f.clusterGain ? { cluster: { side: f.cluster, gain: f.clusterGain } } : {}),
        identical: f.identical,
        differences: f.differences,
        partialRuns: f.partialRuns,
        load: { ...f.load, processors },
        method: f.cluster
          ? `${m.runs} searches per plan one at a time, the plans in turn (routed by this server, all shards, routed by the cluster's search pipeline: sent with no routing); then ${m.runs} per plan with ${m.concurrency} in flight, in blocks routed / all / cluster / cluster / all / routed, for searches per second and OpenSearch CPU per search (_nodes/stats process CPU, every node, before and after each block). Request cache off. Gains over all shards: all ÷ plan for times and CPU, plan ÷ all for searches per second.`
          : `${m.runs} searches per plan one at a time, alternating routed and all shards; then ${m.runs} per plan with ${m.concurrency} in flight, in blocks routed / all / all / routed, for searches per second and OpenSearch CPU per search (_nodes/stats process CPU, every node, before and after each block). Request cache off. Gains: all ÷ routed for times and CPU, routed ÷ all for searches per second.`,
        ms: performance.now() - t0,
        at,
      };
      return { httpStatus: 200, body: answer as unknown as Record<string, unknown> };
    } catch (e) {
      return errorResult(head, e, api.client.url);
    } finally {
      this.running = false;
    }
  }

  /** fromRequest reads POST /api/measure: the method, the Origin (the page's own, as for writes), the JSON body; then answers it. */
  async fromRequest(req: IncomingMessage): Promise<ApiResult> {
    if (req.method !== 'POST') return { httpStatus: 405, body: { status: 'error', error: { message: `${req.method} is not allowed on /api/measure: expected POST with a JSON body such as {"lat":37.7749,"lng":-122.4194,"radius":"15mi"}` } }, headers: { allow: 'POST' } };
    const origin = req.headers.origin;
    if (typeof origin === 'string' && origin !== `http://${req.headers.host ?? ''}`) return { httpStatus: 403, body: { status: 'forbidden', error: { message: `Origin ${JSON.stringify(origin)} is not this page's own (http://${req.headers.host ?? '?'}): measurements are refused from other sites` } } };
    const text = await readBody(req, MAX_MEASURE_BODY_BYTES);
    if (text === null) return { httpStatus: 400, body: { status: 'invalid', error: { param: 'body', message: `the body is larger than ${MAX_MEASURE_BODY_BYTES} bytes: send one JSON object` } } };
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (e) {
      return { httpStatus: 400, body: { status: 'invalid', error: { param: 'body', message: `the body is not JSON (${(e as Error).message}): send one JSON object such as {"lat":37.7749,"lng":-122.4194,"radius":"15mi"}` } } };
    }
    return this.answer(body);
  }
}
