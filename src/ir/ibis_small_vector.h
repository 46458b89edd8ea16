/*
 * A vector with room for N elements inside the object.
 *
 * Instructions hold their operands and values their defs and uses in
 * these: nearly all of them have a few, and a std::vector allocated for
 * each list of each instruction and value (a tenth of a compile's
 * instructions went to malloc and free).  A longer list moves to the heap.
 *
 * Only for trivially copyable elements, which need no constructor or
 * destructor calls when they move.  The interface is the part of
 * std::vector's that the IR's lists need; converting to a std::vector
 * makes a copy (a snapshot to iterate while the list changes).
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>
#include <vector>

namespace ibis {

template <typename T, unsigned N>
class small_vector {
   static_assert(std::is_trivially_copyable<T>::value &&
                    std::is_trivially_destructible<T>::value,
                 "small_vector moves its elements with memcpy");

public:
   using value_type = T;
   using size_type = size_t;
   using reference = T &;
   using const_reference = const T &;
   using iterator = T *;
   using const_iterator = const T *;

   small_vector() = default;
   small_vector(const small_vector &o) { append(o.begin(), o.end()); }
   small_vector &operator=(const small_vector &o)
   {
      if (this != &o) {
         size_ = 0;
         append(o.begin(), o.end());
      }
      return *this;
   }
   ~small_vector()
   {
      if (!is_inline())
         ::operator delete(data_);
   }

   operator std::vector<T>() const { return std::vector<T>(begin(), end()); }

   size_t size() const { return size_; }
   size_t capacity() const { return cap_; }
   bool empty() const { return size_ == 0; }

   T *data() { return data_; }
   const T *data() const { return data_; }
   iterator begin() { return data_; }
   iterator end() { return data_ + size_; }
   const_iterator begin() const { return data_; }
   const_iterator end() const { return data_ + size_; }
   T &operator[](size_t i) { return data_[i]; }
   const T &operator[](size_t i) const { return data_[i]; }
   T &front() { return data_[0]; }
   const T &front() const { return data_[0]; }
   T &back() { return data_[size_ - 1]; }
   const T &back() const { return data_[size_ - 1]; }

   void reserve(size_t n)
   {
      if (n > cap_)
         grow(n);
   }
   void push_back(const T &x)
   {
      if (size_ == cap_) {
         /* x may be an element of this vector. */
         const T copy = x;
         grow(cap_ * 2);
         new (data_ + size_++) T(copy);
         return;
      }
      new (data_ + size_++) T(x);
   }
   void pop_back() { size_--; }
   void clear() { size_ = 0; }
   /* New elements are value-initialized, as std::vector's are. */
   void resize(size_t n)
   {
      reserve(n);
      for (size_t i = size_; i < n; i++)
         new (data_ + i) T();
      size_ = n;
   }
   iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
   iterator erase(const_iterator first, const_iterator last)
   {
      T *f = data_ + (first - data_);
      const size_t tail = end() - last;
      if (first != last && tail)
         memmove(static_cast<void *>(f), last, tail * sizeof(T));
      size_ -= last - first;
      return f;
   }

private:
   bool is_inline() const { return data_ == inline_data(); }
   const T *inline_data() const { return reinterpret_cast<const T *>(inline_); }
   void append(const T *first, const T *last)
   {
      reserve(size_ + (last - first));
      for (; first != last; ++first)
         new (data_ + size_++) T(*first);
   }
   void grow(size_t n)
   {
      T *p = static_cast<T *>(::operator new(n * sizeof(T)));
      memcpy(static_cast<void *>(p), data_, size_ * sizeof(T));
      if (!is_inline())
         ::operator delete(data_);
      data_ = p;
      cap_ = n;
   }

   T *data_ = reinterpret_cast<T *>(inline_);
   uint32_t size_ = 0;
   uint32_t cap_ = N;
   alignas(T) unsigned char inline_[N * sizeof(T)];
};

} /* namespace ibis */
