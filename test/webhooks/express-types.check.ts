// Compile-time checks (tsc --noEmit, run before the tests): webhookMiddleware, typed without Express's
// types, still fits Express's routes as a handler and leaves the route's own req/res types alone.
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { webhookMiddleware, type WebhookMiddleware, type WebhookRequest } from '../../src/webhooks/express.js';

const app = express();
const secret = 'whsec_check';

// The middleware beside an inferred handler: req.webhookEvent is typed, req.body and res.json stay Express's.
app.post('/hooks', webhookMiddleware(secret), (req, res) => {
  const type: string | undefined = req.webhookEvent?.type;
  const anything: number = req.body.anything;
  res.json({ ok: true, type, anything });
});

// Route parameters are still inferred from the path; onError gets the error and the request.
app.post(
  '/hooks/:tenant',
  express.raw({ type: '*/*' }),
  webhookMiddleware([secret, 'whsec_old'], {
    maxBodyBytes: 1024,
    onError: (err, req) => console.log(err.code, req.headers['user-agent']),
    logger: console, // any { warn(message) }
    clock: Date.now,
  }),
  (req, res) => {
    const tenant: string = req.params.tenant;
    res.status(200).send(tenant);
  },
);

// Explicitly typed handlers, app.use, a Router, and the middleware as Express's RequestHandler.
app.post('/typed', webhookMiddleware(secret), (req: Request, res: Response, next: NextFunction) => {
  const event = (req as WebhookRequest<Request>).webhookEvent;
  res.setHeader('x-event', event.id);
  next();
});
app.use('/hooks', webhookMiddleware(secret));
const router = express.Router();
router.post('/', webhookMiddleware(secret), (req, res) => res.send(req.webhookEvent!.id));
const asExpressHandler: RequestHandler = webhookMiddleware(secret);
const middleware: WebhookMiddleware = webhookMiddleware(secret);
app.post('/again', middleware, asExpressHandler, (req, res) => {
  const { webhookEvent } = req as WebhookRequest;
  res.sendStatus(webhookEvent.type.length > 0 ? 200 : 500);
});
