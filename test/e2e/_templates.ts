// The template the template tests share: rain in a city, two blanks, braces written doubled.
import type { QuestionTemplateCreateParams } from '../../src/index.js';

export const rain: QuestionTemplateCreateParams = {
  scope: 'personal',
  name: 'Rain in a city',
  questionType: 'binary',
  fields: {
    title: 'Will it rain in {city} on {date}?',
    resolutionCriteria: 'Resolves YES if the {city} weather service records rain on {date}.',
    finePrint: 'Rain means at least 0.2 mm, written {{0.2 mm}} in the {{daily}} record.',
  },
  blanks: [
    { key: 'city', label: 'City', hint: 'Paris' },
    { key: 'date', label: 'Date' },
  ],
  tags: ['Weather'],
};
