// antd's texts (pagination, pickers, empty states) and dayjs's names of days and months in ja-JP: a chunk of its own,
// fetched with the console's messages of the same language only.
import 'dayjs/locale/ja';
export { default as antdLocale } from 'antd/es/locale/ja_JP';
export const dayjsLocale = 'ja';
