import { Link, useNavigate } from 'react-router-dom';
import { when } from '../../format';
import { useNow, useOps } from '../../hooks';
import { OPS_PATHS } from '../../paths';
import { Age, Badge, Card, Empty, ErrorLine, PageHead, css as s } from '../../ui';
import { ID_TYPE } from '../KycCase/KycParts';

/** Real-name review: the cases under review, oldest first (one case: KycCase). */
export function KycListScreen() {
  const list = useOps('kycList', {}, 15_000);
  const now = useNow(5000);
  const navigate = useNavigate();
  const cases = list.data ?? [];
  return (
    <>
      <PageHead title="Real-name reviews" subtitle="Submissions under review, oldest first." />
      <ErrorLine error={list.error} />
      <Card title={`Under review · ${cases.length}`} flush>
        {cases.length === 0 ? (
          <Empty>{list.loading ? 'Loading…' : 'No submission waits for review.'}</Empty>
        ) : (
          <table className={s.table}>
            <thead>
              <tr>
                <th>Name</th>
                <th>Phone</th>
                <th>ID type</th>
                <th>Submitted</th>
                <th className={s.num}>Waiting</th>
                <th>Taken by</th>
              </tr>
            </thead>
            <tbody>
              {cases.map((c) => (
                <tr key={c.userId} onDoubleClick={() => navigate(OPS_PATHS.kyc(c.userId))}>
                  <td>
                    <Link className={s.strong} to={OPS_PATHS.kyc(c.userId)}>
                      {c.realName}
                    </Link>
                  </td>
                  <td className={s.mono}>{c.phone}</td>
                  <td>
                    {ID_TYPE[c.idType] ?? c.idType}{' '}
                    {c.flags.length > 0 && (
                      <Badge tone="danger">
                        {c.flags.length === 1 ? '1 warning' : `${c.flags.length} warnings`}
                      </Badge>
                    )}
                  </td>
                  <td className={s.muted}>{when(c.submittedAt)}</td>
                  <td className={s.num}>
                    <Age since={c.submittedAt} now={now} target={4 * 3600_000} />
                  </td>
                  <td>{c.claimedBy?.name ?? <span className={s.muted}>Nobody</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
    </>
  );
}
