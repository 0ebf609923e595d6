// antd's texts (pagination, pickers, empty states) and dayjs's names of days and months in zh-CN: a chunk of its own,
// fetched with the console's messages of the same language only.
import 'dayjs/locale/zh-cn';
export { default as antdLocale } from 'antd/es/locale/zh_CN';
export const dayjsLocale = 'zh-cn';
