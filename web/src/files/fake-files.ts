import type { KnowledgeFile } from '../api/services';
import type { Api } from '../api/services';

type GetFiles = Api['knowledge']['GetFiles'];

/**
 * A stand-in for the service's GetFiles over `files` for component tests: the same search
 * (any part of the name, case-insensitive), filters, sorts, pages and counts as its contract
 * says, so that the panel is tested against what it asks for.
 */
export function fakeGetFiles(files: readonly KnowledgeFile[], calls: unknown[] = []): GetFiles {
  return (async (params: Parameters<GetFiles>[0]) => {
    calls.push(params);
    const { q, status, format, sort = 'created_at', page = 1, size = 50 } = params;
    const order = params.order ?? (sort === 'created_at' ? 'desc' : 'asc');
    const matching = files.filter(
      (file) =>
        (!q || file.name.toLowerCase().includes(q.toLowerCase())) &&
        (!status || file.status === status) &&
        (!format || file.format === format),
    );
    const key = (file: KnowledgeFile): string | number =>
      sort === 'name' ? file.name : sort === 'size' ? file.size : file[sort];
    matching.sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      const by = x < y ? -1 : x > y ? 1 : 0;
      return order === 'asc' ? by : -by;
    });
    const counts = { queued: 0, processing: 0, ready: 0, failed: 0 };
    for (const file of files) if (file.status in counts) counts[file.status as 'ready'] += 1;
    return {
      items: matching.slice((page - 1) * size, page * size),
      page,
      size,
      total: matching.length,
      counts,
    };
  }) as GetFiles;
}
