import { Result } from 'antd';

// antd's Result, a chunk of its own: its module carries the three illustrations (403, 404, 500) in one, ~10 KB gzip.
export default Result;
