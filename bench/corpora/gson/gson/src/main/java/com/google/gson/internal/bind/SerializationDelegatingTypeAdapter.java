/*
 * Copyright (C) 2022 Google Inc.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 * http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package com.google.gson.internal.bind;

import com.google.gson.TypeAdapter;

/** Type adapter which might delegate serialization to another adapter. */
public abstract class SerializationDelegatingTypeAdapter<T> extends TypeAdapter<T> {
  /**
   * Returns the adapter used for serialization, might be {@code this} or another adapter. That
   * other adapter might itself also be a {@code SerializationDelegatingTypeAdapter}.
   */
  public abstract TypeAdapter<T> getSerializationDelegate();
}
