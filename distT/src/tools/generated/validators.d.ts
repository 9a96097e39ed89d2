export function builtinValidator0(data: any, { instancePath, parentData, parentDataProperty, rootData }?: {
    instancePath?: string | undefined;
    rootData?: any;
}): boolean;
export function builtinValidator1(data: any, { instancePath, parentData, parentDataProperty, rootData }?: {
    instancePath?: string | undefined;
    rootData?: any;
}): boolean;
export function builtinValidator2(data: any, { instancePath, parentData, parentDataProperty, rootData }?: {
    instancePath?: string | undefined;
    rootData?: any;
}): boolean;
export function builtinValidator3(data: any, { instancePath, parentData, parentDataProperty, rootData }?: {
    instancePath?: string | undefined;
    rootData?: any;
}): boolean;
export function builtinValidator4(data: any, { instancePath, parentData, parentDataProperty, rootData }?: {
    instancePath?: string | undefined;
    rootData?: any;
}): boolean;
export function builtinValidator5(data: any, { instancePath, parentData, parentDataProperty, rootData }?: {
    instancePath?: string | undefined;
    rootData?: any;
}): boolean;
export function builtinValidator6(data: any, { instancePath, parentData, parentDataProperty, rootData }?: {
    instancePath?: string | undefined;
    rootData?: any;
}): boolean;
export function builtinValidator7(data: any, { instancePath, parentData, parentDataProperty, rootData }?: {
    instancePath?: string | undefined;
    rootData?: any;
}): boolean;
export function builtinValidator8(data: any, { instancePath, parentData, parentDataProperty, rootData }?: {
    instancePath?: string | undefined;
    rootData?: any;
}): boolean;
export function builtinValidator9(data: any, { instancePath, parentData, parentDataProperty, rootData }?: {
    instancePath?: string | undefined;
    rootData?: any;
}): boolean;
export function builtinValidator10(data: any, { instancePath, parentData, parentDataProperty, rootData }?: {
    instancePath?: string | undefined;
    rootData?: any;
}): boolean;
export function builtinValidator11(data: any, { instancePath, parentData, parentDataProperty, rootData }?: {
    instancePath?: string | undefined;
    rootData?: any;
}): boolean;
export function builtinValidator12(data: any, { instancePath, parentData, parentDataProperty, rootData }?: {
    instancePath?: string | undefined;
    rootData?: any;
}): boolean;
export function builtinValidator13(data: any, { instancePath, parentData, parentDataProperty, rootData }?: {
    instancePath?: string | undefined;
    rootData?: any;
}): boolean;
declare const _default: {
    "714e34ee9de5f4de": typeof validate10;
    "135ff166654748f0": typeof validate11;
    "1d36c39dca3ba3fa": typeof validate12;
    c75e34cfcbf04968: typeof validate13;
    "5ea216f896fd094d": typeof validate14;
    "388b6a7eed4e0ca8": typeof validate15;
    "733c58ec2acd96d9": typeof validate16;
    "4871c468d417d9df": typeof validate17;
    "230e64e1ee1c9727": typeof validate18;
    "0379693671dbd549": typeof validate19;
    "7777bc31cd49f6c0": typeof validate20;
    "5e8f15682ea8359a": typeof validate21;
    "6741b4b69639f787": typeof validate22;
    "7cdea85ca71be420": typeof validate23;
};
export default _default;
/** validatorCheck(schema) of each validator, by the same key: a key hit is used only when the check matches too. */
export const checks: {
    "714e34ee9de5f4de": string;
    "135ff166654748f0": string;
    "1d36c39dca3ba3fa": string;
    c75e34cfcbf04968: string;
    "5ea216f896fd094d": string;
    "388b6a7eed4e0ca8": string;
    "733c58ec2acd96d9": string;
    "4871c468d417d9df": string;
    "230e64e1ee1c9727": string;
    "0379693671dbd549": string;
    "7777bc31cd49f6c0": string;
    "5e8f15682ea8359a": string;
    "6741b4b69639f787": string;
    "7cdea85ca71be420": string;
};
declare function validate10(data: any, { instancePath, parentData, parentDataProperty, rootData }?: {
    instancePath?: string | undefined;
    rootData?: any;
}): boolean;
declare function validate11(data: any, { instancePath, parentData, parentDataProperty, rootData }?: {
    instancePath?: string | undefined;
    rootData?: any;
}): boolean;
declare function validate12(data: any, { instancePath, parentData, parentDataProperty, rootData }?: {
    instancePath?: string | undefined;
    rootData?: any;
}): boolean;
declare function validate13(data: any, { instancePath, parentData, parentDataProperty, rootData }?: {
    instancePath?: string | undefined;
    rootData?: any;
}): boolean;
declare function validate14(data: any, { instancePath, parentData, parentDataProperty, rootData }?: {
    instancePath?: string | undefined;
    rootData?: any;
}): boolean;
declare function validate15(data: any, { instancePath, parentData, parentDataProperty, rootData }?: {
    instancePath?: string | undefined;
    rootData?: any;
}): boolean;
declare function validate16(data: any, { instancePath, parentData, parentDataProperty, rootData }?: {
    instancePath?: string | undefined;
    rootData?: any;
}): boolean;
declare function validate17(data: any, { instancePath, parentData, parentDataProperty, rootData }?: {
    instancePath?: string | undefined;
    rootData?: any;
}): boolean;
declare function validate18(data: any, { instancePath, parentData, parentDataProperty, rootData }?: {
    instancePath?: string | undefined;
    rootData?: any;
}): boolean;
declare function validate19(data: any, { instancePath, parentData, parentDataProperty, rootData }?: {
    instancePath?: string | undefined;
    rootData?: any;
}): boolean;
declare function validate20(data: any, { instancePath, parentData, parentDataProperty, rootData }?: {
    instancePath?: string | undefined;
    rootData?: any;
}): boolean;
declare function validate21(data: any, { instancePath, parentData, parentDataProperty, rootData }?: {
    instancePath?: string | undefined;
    rootData?: any;
}): boolean;
declare function validate22(data: any, { instancePath, parentData, parentDataProperty, rootData }?: {
    instancePath?: string | undefined;
    rootData?: any;
}): boolean;
declare function validate23(data: any, { instancePath, parentData, parentDataProperty, rootData }?: {
    instancePath?: string | undefined;
    rootData?: any;
}): boolean;
