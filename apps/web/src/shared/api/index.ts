export { API_BASE, ApiError, http, request, unwrap, type RequestOptions } from './client.ts';
export { browser, feedback, setFeedback, type Feedback } from './feedback.ts';
