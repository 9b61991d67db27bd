import { collectionName } from '../collection-access';
import type { AppContext } from '../context';
import type { Column } from '../components/data-table';
import { now } from '../i18n/bind';
import { formatInteger } from '../i18n/format';
import type { Messages } from '../i18n/messages';
import { DataTable } from '../components/data-table';
import { useUniqueId } from '../components/unique-id';

export type UsageReport = Awaited<ReturnType<AppContext['api']['chat']['GetUsage']>>;
export type UsageOverview = Awaited<ReturnType<AppContext['api']['chat']['GetUsageAll']>>;
export type Amounts = UsageReport['totals'];
export type UsageDay = UsageReport['days'][number];

/** The columns every usage table shares after its first: questions and the three kinds of tokens. */
export function amountColumns<Row extends Amounts>(m: Messages['usage']): Column<Row>[] {
  const number = (pick: (row: Row) => number) => (row: Row) => (
    <span class="number">{formatInteger(pick(row))}</span>
  );
  return [
    { header: m.questions, cell: number((r) => r.questions) },
    { header: m.embeddingTokens, cell: number((r) => r.embedding_tokens) },
    { header: m.promptTokens, cell: number((r) => r.prompt_tokens) },
    { header: m.completionTokens, cell: number((r) => r.completion_tokens) },
    { header: m.totalTokens, cell: number((r) => r.total_tokens) },
  ];
}

const WIDTH = 600;
const HEIGHT = 160;
const LABEL_SPACE = 2;

/**
 * A small bar chart of one figure per day, drawn as SVG: one image to assistive technology
 * (its title and a description that points to the table with the same figures), a bar per
 * day with its own tooltip for the mouse. No chart library: a few rectangles.
 */
export function DayChart(props: {
  days: readonly UsageDay[];
  pick: (day: UsageDay) => number;
  title: string;
  m: Messages['usage'];
}) {
  const id = useUniqueId('usage-chart');
  const values = props.days.map(props.pick);
  const max = Math.max(0, ...values);
  const step = WIDTH / Math.max(1, props.days.length);
  const barWidth = Math.max(2, step * 0.7);
  const plot = HEIGHT - LABEL_SPACE;
  const first = props.days[0]?.day;
  const last = props.days.at(-1)?.day;
  return (
    <figure class="usage-chart">
      <figcaption id={`${id}-title`}>{props.title}</figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        preserveAspectRatio="none"
      >
        <desc id={`${id}-desc`}>{props.m.chartDescription(props.days.length, max)}</desc>
        <line x1="0" y1={plot} x2={WIDTH} y2={plot} class="axis" />
        {props.days.map((day, i) => {
          const value = values[i]!;
          const height = max === 0 ? 0 : Math.max(value > 0 ? 1 : 0, (value / max) * (plot - 4));
          return (
            <rect
              key={day.day}
              x={i * step + (step - barWidth) / 2}
              y={plot - height}
              width={barWidth}
              height={height}
              class="bar"
            >
              <title>{`${day.day}: ${formatInteger(value)}`}</title>
            </rect>
          );
        })}
      </svg>
      {/* The first and last day, as text outside the drawing (which stretches with the box). */}
      <div class="usage-chart-axis" aria-hidden="true">
        <span>{first}</span>
        {last !== first && <span>{last}</span>}
      </div>
    </figure>
  );
}

/** The days that had any use, newest first: what the per-day table lists beside the chart. */
export const usedDays = (days: readonly UsageDay[]) =>
  days.filter((d) => d.questions > 0 || d.total_tokens > 0).reverse();

/**
 * The period's days: a chart of tokens and one of questions, and the days that had any use as a
 * table with the same figures (what assistive technology reads instead of the charts).
 */
export function DaysSection(props: {
  from: string;
  to: string;
  days: readonly UsageDay[];
  m: Messages['usage'];
}) {
  const { m } = props;
  const id = useUniqueId('usage-days');
  const days = usedDays(props.days);
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{m.period(props.from, props.to)}</h2>
      <div class="usage-charts">
        <DayChart days={props.days} pick={(d) => d.total_tokens} title={m.chartTitle} m={m} />
        <DayChart days={props.days} pick={(d) => d.questions} title={m.chartQuestionsTitle} m={m} />
      </div>
      {days.length === 0 ? (
        <p>{m.nothingYet}</p>
      ) : (
        <DataTable
          class="usage-days"
          caption={m.perDay(days.length)}
          columns={[
            { header: m.day, rowHeader: true, cell: (row) => row.day },
            ...amountColumns<UsageDay>(m),
          ]}
          rows={days}
          rowKey={(row) => row.day}
        />
      )}
    </section>
  );
}

type CollectionRow = UsageReport['by_collection'][number];

/** The period per collection (none when nothing was asked of one). */
export function CollectionsTable(props: { rows: readonly CollectionRow[]; m: Messages['usage'] }) {
  const { m } = props;
  if (props.rows.length === 0) return null;
  return (
    <DataTable
      class="usage-collections"
      caption={m.perCollection(props.rows.length)}
      columns={[
        {
          header: m.collection,
          rowHeader: true,
          cell: (row) =>
            row.collection_id === null
              ? m.noCollection
              : row.collection_name === null
                ? m.unreadableCollection
                : now(collectionName({ id: row.collection_id, name: row.collection_name })),
        },
        ...amountColumns<CollectionRow>(m),
      ]}
      rows={props.rows}
      rowKey={(row) => row.collection_id ?? 'none'}
    />
  );
}
