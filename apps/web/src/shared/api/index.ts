export { API_BASE, ApiError, http, reactToFailure, request, unwrap, type RequestOptions } from './client.ts';
export { addNoticeCloser, browser, closeNotices, feedback, hasFeedback, setFeedback, setFeedbackLoader, type Feedback } from './feedback.ts';
export { dictItemsQuery, getDictItems, useDictItems } from './get-dict-items.ts';
export { queryClient } from './query-client.ts';
export { uploadFile, type UploadOptions, type UploadedFile } from './upload-file.ts';
