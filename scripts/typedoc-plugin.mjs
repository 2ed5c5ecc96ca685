// A typedoc plugin for the API reference: every export is filed under a category by where it is
// defined (client, each resource by its client path, errors, webhooks, testing); each module is named by the import path
// users write (`forecasting-sdk/webhooks`); types are shown the way users write them (an interface
// built from a zod schema does not show the schema as its base, nor its fields as inherited from
// it); internal base classes stay out of hierarchies; and each guide is titled by its heading.
import { Comment, CommentTag, Converter, ReflectionKind } from 'typedoc';

/**
 * The resources by the path users call them on, as the client's properties (`client.questions`,
 * with its sub-resources such as `client.questions.files`): each group's file of resources and of
 * schemas (its params and records) is filed under its path, so a method, its params and what it
 * answers are found together; typedoc.json's `categoryOrder` lists them in the client's order.
 */
const GROUP_PATHS = {
  questions: 'client.questions',
  'question-fields': 'client.questions',
  context: 'client.questions',
  sharing: 'client.questions',
  tags: 'client.tags',
  forecasts: 'client.forecasts',
  'forecast-batches': 'client.forecasts',
  chat: 'client.forecasts',
  'run-many': 'client.forecasts',
  schedules: 'client.schedules, client.watches',
  credits: 'client.credits',
  account: 'client.credits',
  webhooks: 'client.webhooks',
  decisions: 'client.decisions',
  presets: 'client.presets',
  templates: 'client.questionTemplates',
  connections: 'client.connections',
};

/** The category of a resource's or a schema's file: its client path, else the records every group shares. */
function resourceCategory(file) {
  const group = /\/src\/(?:resources|schemas)\/(?:records\/)?([a-z-]+)(?:\.ts$|\/)/.exec(file)?.[1];
  return GROUP_PATHS[group] ?? 'Shared records';
}

/** The category of a file, by its place in src/. The first match wins. */
const CATEGORIES = [
  [/\/src\/core\/errors\.ts$/, 'Errors'],
  // What only a custom coordinator's author writes: apart from the client a user calls.
  [/\/src\/core\/(event-)?coordination\.ts$/, 'Coordination'],
  [/\/src\/webhooks\//, 'Webhooks'],
  [/\/src\/schemas\/events\.ts$/, 'Webhooks'],
  [/\/src\/testing\//, 'Testing'],
  [/\/src\/(resources|schemas)\//, resourceCategory],
  [/\/src\//, 'Client'],
];

/** The package's name, which the module of `src/index.ts` takes; the others are its subpaths. */
const PACKAGE = 'forecasting-sdk';

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
    // typedoc names a module by its file (`index`, `webhooks/express`); users know it by its import path.
    if (reflection.kindOf(ReflectionKind.Module) && reflection.parent?.kindOf(ReflectionKind.Project)) {
      reflection.name = reflection.name === 'index' ? PACKAGE : `${PACKAGE}/${reflection.name}`;
      return;
    }
    if (!reflection.parent?.kindOf(ReflectionKind.Module | ReflectionKind.Project)) return;
    const file = context.getSymbolFromReflection(reflection)?.declarations?.[0]?.getSourceFile().fileName ?? '';
    // Every error class in one group, wherever it is defined (the base, the API's, the waits', the webhooks').
    const isErrorClass = reflection.kindOf(ReflectionKind.Class) && /Error$/.test(reflection.name);
    const rule = CATEGORIES.find(([pattern]) => pattern.test(file))?.[1];
    const category = isErrorClass ? 'Errors' : typeof rule === 'function' ? rule(file) : rule;
    if (!category) return;
    reflection.comment ??= new Comment();
    if (!reflection.comment.blockTags.some((t) => t.tag === '@category')) {
      reflection.comment.blockTags.push(new CommentTag('@category', [{ kind: 'text', text: category }]));
    }
  });
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const reflection of Object.values(context.project.reflections)) {
      // What an error class inherits from JavaScript's `Error` (`captureStackTrace`, …) is no part of
      // this package: a browser hides external members, which left an empty "Methods" heading.
      if (reflection.flags.isExternal && reflection.parent?.kindOf(ReflectionKind.Class) && /Error$/.test(reflection.parent.name)) {
        context.project.removeReflection(reflection);
        continue;
      }
      // A schema shares its name with its type (`const Question = …; interface Question …`): the schemas are
      // internal, so only the type is documented.
      if (reflection.kindOf(ReflectionKind.TypeAlias | ReflectionKind.Variable) && isZodSchema(reflection.type)) {
        context.project.removeReflection(reflection);
        continue;
      }
      // `interface Question extends z.output<typeof Question>`: the base is how the type is built, not
      // what it is. Likewise `class Questions extends APIResource`: a base class the package does not
      // export has no page, so it stays out of the hierarchy.
      if (reflection.extendedTypes) {
        reflection.extendedTypes = reflection.extendedTypes.filter((t) => !(t.type === 'reference' && (t.package === 'zod' || isInternal(t))));
        if (reflection.extendedTypes.length === 0) delete reflection.extendedTypes;
      }
      // An interface's field has no default: the `= ...` typedoc shows is the schema's initializer.
      if (reflection.kindOf(ReflectionKind.Property) && reflection.parent?.kindOf(ReflectionKind.Interface | ReflectionKind.TypeLiteral)) {
        delete reflection.defaultValue;
      }
    }
  });
  // Last, once typedoc has linked members to what they inherit: a member inherited from (or
  // overriding) something the reference does not document (zod's types, an internal base class)
  // is the type's own member, with no "Inherited from z.input.title" or "BaseClient.get" note.
  app.converter.on(
    Converter.EVENT_RESOLVE_END,
    (context) => {
      for (const reflection of Object.values(context.project.reflections)) {
        for (const key of ['inheritedFrom', 'overwrites']) {
          if (reflection[key] && !reflection[key].reflection) delete reflection[key];
        }
      }
      // The index page is titled with the package's name already: the README's own title would repeat it.
      const readme = context.project.readme;
      if (readme?.[0]?.kind === 'text') readme[0] = { ...readme[0], text: readme[0].text.replace(new RegExp(`^#\\s+${PACKAGE}\\s*\\n`), '') };
      for (const document of context.project.documents ?? []) {
        // A guide's title is its first heading ("Getting started"), not its file name.
        const heading = /^#\s+(.+)$/m.exec(document.content.map((part) => part.text).join(''));
        if (heading) document.name = heading[1].trim().replaceAll('`', '');
      }
    },
    -100,
  );
  errorsByHierarchy(app);
}

/** @param {import('typedoc').Application} app */
function errorsByHierarchy(app) {
  // After typedoc files the categories (at -200): the errors in the order of their hierarchy.
  app.converter.on(
    Converter.EVENT_RESOLVE_END,
    (context) => {
      for (const module of [context.project, ...(context.project.children ?? [])]) {
        const errors = module.categories?.find((c) => c.title === 'Errors');
        if (errors) errors.children = hierarchyOrder(errors.children);
      }
    },
    -300,
  );
}

/**
 * `reflections` as a tree read top to bottom: each class followed by its subclasses (depth first,
 * siblings in their order), the types that are no class (an error's fields) after them.
 */
function hierarchyOrder(reflections) {
  const parentOf = (r) => r.extendedTypes?.[0]?.reflection;
  const ordered = [];
  const visit = (r) => {
    ordered.push(r);
    for (const child of reflections) if (parentOf(child) === r) visit(child);
  };
  const classes = reflections.filter((r) => r.kindOf(ReflectionKind.Class));
  for (const r of classes) if (!classes.includes(parentOf(r))) visit(r);
  return [...ordered, ...reflections.filter((r) => !ordered.includes(r))];
}

/** Whether a type is one of zod's schema types (`ZodMiniObject<…>`, `ZodMiniType<…>`, …). */
function isZodSchema(type) {
  return type?.type === 'reference' && type.package === 'zod' && /^(\$?Zod|ZodMini)/.test(type.qualifiedName ?? type.name);
}

/** A reference to a declaration of this package that the reference does not document (not exported). */
function isInternal(type) {
  return type.package === PACKAGE && !type.reflection;
}
