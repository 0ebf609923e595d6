// antd's texts (pagination, pickers, empty states) and dayjs's names of days and months in en-US: a chunk of its own,
// fetched with the console's messages of the same language only.
// dayjs speaks English without a locale file
export { default as antdLocale } from 'antd/es/locale/en_US';
export const dayjsLocale = 'en';
