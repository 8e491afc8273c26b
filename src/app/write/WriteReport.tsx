/**
 * WriteReport: the answer of the last write or delete beside the routing
 * core's own view of the point. It shows the cell (level-10 token), the shard
 * the core names (computed in this browser), the shard OpenSearch
 * acknowledged, and a plain verdict: they agree, or DISAGREE in red with each
 * difference. During a migration it lists both owners with their roles (read:
 * the owner searches read; write: the second copy) and the epoch. Test hooks:
 * write-report (data-status written | deleted, data-id), write-cell,
 * write-core (data-shard), write-ack (data-shard), write-verdict (data-agree),
 * write-owner (data-name, data-shard, data-role), write-epoch.
 */
import type { WriteAnswer } from '../../server/wire';
import { readAck, writeVerdict, type CoreRoute } from './coreRoute';
import { formatLatLng } from '../shell/format';

export interface WriteReportProps {
  answer: WriteAnswer;
  /** The core's routing of the point, computed in the browser when the request was sent. */
  core: CoreRoute;
}

export function WriteReport({ answer, core }: WriteReportProps) {
  const verdict = writeVerdict(core, answer);
  const ack = readAck(core, answer);
  const moving = answer.owners.length > 1;
  return (
    <section className="write-report" data-testid="write-report" data-status={answer.status} data-id={answer.restaurantId}>
      <h4>
        {answer.status === 'written' ? 'Written' : 'Deleted'} restaurant <span className="mono">{answer.restaurantId}</span>
        {answer.dishes > 0 && <span className="dim"> · {answer.dishes} dish{answer.dishes === 1 ? '' : 'es'} {answer.status === 'written' ? 'rewritten' : 'deleted'}</span>}
      </h4>
      <dl className="write-facts">
        <dt>at</dt>
        <dd>{formatLatLng(answer.location.lat, answer.location.lng)}</dd>
        <dt>cell (level 10)</dt>
        <dd className="mono" data-testid="write-cell">
          {answer.cell}
        </dd>
        <dt>the core names</dt>
        <dd className="mono" data-testid="write-core" data-shard={core.read.shard} data-name={core.read.name}>
          {core.read.name} · shard {core.read.shard}
        </dd>
        <dt>OpenSearch acknowledged</dt>
        <dd className="mono" data-testid="write-ack" data-shard={ack?.shard ?? ''}>
          {ack ? `shard ${ack.shard}${ack.node ? ` on ${ack.node}` : ''} · ${ack.result}` : 'nothing for this routing'}
        </dd>
      </dl>
      <p className={`write-verdict ${verdict.agree ? 'agree' : 'disagree'}`} data-testid="write-verdict" data-agree={String(verdict.agree)}>
        {verdict.agree ? (
          <>
            <b>agree</b> · core shard {core.read.shard} = acknowledged shard {ack?.shard}
            {moving ? ', and both owners hold it where the core says' : ''}
          </>
        ) : (
          <>
            <b>DISAGREE</b> · the core and OpenSearch name different shards: a routed search will not find this restaurant
          </>
        )}
      </p>
      {!verdict.agree && (
        <ul className="write-problems">
          {verdict.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      {moving && (
        <div className="write-owners">
          <p className="small">
            A migration is moving this range{answer.epoch !== null && (
              <>
                {' '}
                (epoch <span data-testid="write-epoch">{answer.epoch}</span>)
              </>
            )}
            : the restaurant is written to both owners.
          </p>
          <table className="write-owner-table">
            <thead>
              <tr>
                <th>owner</th>
                <th>role</th>
                <th>shard</th>
                <th>acknowledged</th>
              </tr>
            </thead>
            <tbody>
              {answer.owners.map((o) => {
                const a = answer.acknowledged.find((x) => x.routing === o.name);
                const ok = a !== undefined && a.shard === o.shard;
                return (
                  <tr key={o.name} data-testid="write-owner" data-name={o.name} data-shard={o.shard} data-role={o.role}>
                    <td className="mono">{o.name}</td>
                    <td>{o.role === 'read' ? 'read (searches)' : 'write (copy)'}</td>
                    <td className="mono">{o.shard}</td>
                    <td className={`mono ${ok ? 'good' : 'bad'}`}>{a ? `shard ${a.shard} · ${a.result}` : 'none'}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {core.note && <p className="small dim">{core.note}.</p>}
    </section>
  );
}
